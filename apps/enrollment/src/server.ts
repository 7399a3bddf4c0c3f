import type { App } from "unruffled";
import { adminToken } from "./admin-token.ts";
import { createEnrollmentApp } from "./app.ts";
import { defaultSqlitePath } from "./db/index.ts";
import { appOptions } from "./server-options.ts";

/**
 * The service as the `unruffled` command loads it: a factory that builds the app on the database of
 * `DATABASE_URL` (else the embedded SQLite file), which the app opens when the command starts it and
 * closes when the command stops it; pages on `CORS_ORIGINS` may call it, `TRUSTED_PROXIES` name the
 * proxies it believes, `DRAIN_DELAY_MS` is its drain on SIGTERM (once /readyz was probed), as
 * `npm start` reads them. The admin token is `npm start`'s (`ENROLL_ADMIN_TOKEN`, or the one kept
 * beside the embedded database).
 *
 * @example
 * npx unruffled serve apps/enrollment/src/server.ts --watch --log-level info
 * npx unruffled routes apps/enrollment/src/server.ts
 */
export default async function enrollmentApp(): Promise<App> {
  const databaseUrl = process.env.DATABASE_URL || defaultSqlitePath;
  const options = appOptions(process.env);
  const admin = await adminToken(process.env, databaseUrl);
  return createEnrollmentApp(databaseUrl, {
    ...(options.trustedProxies !== undefined && {
      settings: { PROXIES: { trusted: options.trustedProxies } },
    }),
    corsOrigins: options.corsOrigins,
    adminToken: admin.token,
    drainDelayMs: options.drainDelayMs,
  });
}
