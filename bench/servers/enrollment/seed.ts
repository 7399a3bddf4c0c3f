// A fresh enrollment database for one server process: a new SQLite file in a temp directory,
// migrated by the app's own openDatabase() and filled in one transaction with the rows of data.ts.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "../../../apps/enrollment/src/db/index.ts";
import { COURSES, course, STUDENTS, student } from "./data.ts";

// Rows per INSERT: well under SQLite's limit on bound variables per statement.
const BATCH = 500;

function ids(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

export type SeededDatabase = {
  database: Database;
  /** Closes the database and removes its directory. */
  discard(): Promise<void>;
};

export async function seededDatabase(): Promise<SeededDatabase> {
  const dir = mkdtempSync(join(os.tmpdir(), "bench-enrollment-"));
  const database = await openDatabase(join(dir, "enrollment.db"));
  await database.kysely.transaction().execute(async (trx) => {
    for (let first = 1; first <= STUDENTS; first += BATCH) {
      const rows = ids(first, Math.min(STUDENTS, first + BATCH - 1)).map(student);
      await trx.insertInto("students").values(rows).execute();
    }
    for (let first = 1; first <= COURSES; first += BATCH) {
      const rows = ids(first, Math.min(COURSES, first + BATCH - 1)).map(course);
      await trx.insertInto("courses").values(rows).execute();
    }
  });
  return {
    database,
    async discard() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
