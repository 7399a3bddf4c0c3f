import type { App } from "unruffled";
import { createEnrollmentApp } from "./app.ts";
import { openDatabase } from "./db/index.ts";

/**
 * The service as the `unruffled` command loads it: a factory that opens the database
 * (`DATABASE_URL`, else the embedded SQLite file) and builds the app, which closes the database
 * when the command stops it.
 *
 * @example
 * npx unruffled serve apps/enrollment/src/server.ts --watch --log-level info
 * npx unruffled routes apps/enrollment/src/server.ts
 */
export default async function enrollmentApp(): Promise<App> {
  const database = await openDatabase();
  return createEnrollmentApp(database, { onClose: () => database.close() });
}
