import type { LoggingSettings } from "unruffled";
import { createEnrollmentApp } from "./app.ts";
import { openDatabase } from "./db/index.ts";

// The service: the embedded SQLite file unless DATABASE_URL names PostgreSQL; an access log line
// per request unless LOG_LEVEL says otherwise ("warn" keeps errors only).
const port = Number(process.env.PORT ?? 8000);
const host = process.env.HOST ?? "127.0.0.1";
const level = (process.env.LOG_LEVEL ?? "info") as LoggingSettings["level"];

const database = await openDatabase();
const app = createEnrollmentApp(database, { settings: { LOGGING: { level } } });
await app.listen({ port, host });
console.log(
  `Enrollment API on http://${host}:${port}/api/enroll/hello (${database.dialect}); docs at http://${host}:${port}/openapi/docs`,
);

async function shutdown(signal: string): Promise<void> {
  console.log(`${signal}: finishing requests in flight, then closing`);
  await app.close();
  await database.close();
  process.exit(0);
}
process.once("SIGTERM", () => void shutdown("SIGTERM"));
process.once("SIGINT", () => void shutdown("SIGINT"));
