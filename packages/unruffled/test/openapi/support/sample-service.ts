import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { App } from "unruffled";

const appModule = fileURLToPath(new URL("../../../../../apps/enrollment/src/app.ts", import.meta.url));
const dbModule = fileURLToPath(new URL("../../../../../apps/enrollment/src/db/index.ts", import.meta.url));

/** The sample service on an in-memory SQLite database, when the repository has it. */
export interface SampleService {
  app: App;
  close(): Promise<void>;
}

export const hasSampleService = existsSync(appModule) && existsSync(dbModule);

/** The admin token of the sample service: its write endpoints outside the seed need it. */
export const SAMPLE_ADMIN_TOKEN = "sample-admin-token";

/**
 * Builds the enrollment service of `apps/enrollment` on a fresh in-memory database; pages on
 * `corsOrigins` may call it.
 *
 * @example const { app, close } = await openSampleService();
 */
export async function openSampleService(corsOrigins: readonly string[] = []): Promise<SampleService> {
  const { createEnrollmentApp } = await import(appModule);
  const { openDatabase } = await import(dbModule);
  const database = await openDatabase(":memory:");
  const app: App = createEnrollmentApp(database, {
    log: { error() {} },
    corsOrigins,
    adminToken: SAMPLE_ADMIN_TOKEN,
  });
  return { app, close: () => database.close() };
}
