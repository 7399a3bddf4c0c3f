import type { App } from "unruffled";
import { createEnrollmentApp } from "./app.ts";
import { defaultSqlitePath } from "./db/index.ts";
import { corsOrigins } from "./server-options.ts";

/**
 * The service as the `unruffled` command loads it: a factory that builds the app on the database of
 * `DATABASE_URL` (else the embedded SQLite file), which the app opens when the command starts it and
 * closes when the command stops it; pages on `CORS_ORIGINS` may call it.
 *
 * @example
 * npx unruffled serve apps/enrollment/src/server.ts --watch --log-level info
 * npx unruffled routes apps/enrollment/src/server.ts
 */
export default function enrollmentApp(): App {
  const databaseUrl = process.env.DATABASE_URL || defaultSqlitePath;
  return createEnrollmentApp(databaseUrl, { corsOrigins: corsOrigins(process.env) });
}
