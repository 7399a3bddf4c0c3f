// Loads the demo data set into the configured database: `npm run demo -w apps/enrollment`.
// Uses DATABASE_URL when set, else the embedded SQLite file; running it again adds nothing.
import { defaultSqlitePath, openDatabase } from "../src/db/index.ts";
import { loadDemoData } from "../src/demo-data.ts";

const database = await openDatabase();
try {
  const added = await loadDemoData(database);
  const where =
    database.dialect === "postgres"
      ? "PostgreSQL (DATABASE_URL)"
      : process.env.DATABASE_URL || defaultSqlitePath;
  console.log(
    `Demo data in ${where}: added ${added.students} students, ${added.courses} courses, ${added.enrollments} enrolments.`,
  );
} finally {
  await database.close();
}
