import type { App } from "unruffled";
import { adminToken } from "./admin-token.ts";
import { createEnrollmentApp } from "./app.ts";
import { defaultSqlitePath, openDatabase } from "./db/index.ts";

/**
 * The service as the `unruffled` command loads it: a factory that opens the database
 * (`DATABASE_URL`, else the embedded SQLite file) and builds the app, which closes the database
 * when the command stops it. The admin token is `npm start`'s (`ENROLL_ADMIN_TOKEN`, or the one
 * kept in the data folder).
 *
 * @example
 * npx unruffled serve apps/enrollment/src/server.ts --watch --log-level info
 * npx unruffled routes apps/enrollment/src/server.ts
 */
export default async function enrollmentApp(): Promise<App> {
  const databaseUrl = process.env.DATABASE_URL || defaultSqlitePath;
  const database = await openDatabase(databaseUrl);
  const admin = await adminToken(process.env, databaseUrl);
  return createEnrollmentApp(database, { onClose: () => database.close(), adminToken: admin.token });
}
