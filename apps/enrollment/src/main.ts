import { DEFAULT_DRAIN_DELAY_MS, handleShutdownSignals, type LoggingSettings, runWorkers } from "unruffled";
import { adminToken, describeAdminToken } from "./admin-token.ts";
import { createEnrollmentApp } from "./app.ts";
import { defaultSqlitePath, dialectOf } from "./db/index.ts";
import { type ServerOptions, serverOptions } from "./server-options.ts";
import { databaseFailure, listenFailure } from "./start-up-failure.ts";

// The service: the embedded SQLite file unless DATABASE_URL names PostgreSQL; an access log line
// per request unless LOG_LEVEL says otherwise ("warn" keeps errors only). `--workers N` (or WORKERS)
// runs N processes on one port; SIGTERM and SIGINT first drain (/readyz answers 503 and the service
// keeps serving for DRAIN_DELAY_MS, default 5 s, once something has probed /readyz), then finish
// requests in flight within SHUTDOWN_TIMEOUT_MS (default 10 s), close the database and exit 0. Pages on the origins of
// CORS_ORIGINS (comma-separated; none by default) may call it from a browser. A port taken or a
// database out of reach is told in one line, exit code 1.
const level = (process.env.LOG_LEVEL ?? "info") as LoggingSettings["level"];

let options: ServerOptions;
try {
  options = serverOptions(process.argv.slice(2), process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

async function serve(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || defaultSqlitePath;
  const admin = await adminToken(process.env, databaseUrl);
  const app = createEnrollmentApp(databaseUrl, {
    settings: {
      LOGGING: { level },
      ...(options.trustedProxies !== undefined && { PROXIES: { trusted: options.trustedProxies } }),
    },
    corsOrigins: options.corsOrigins,
    adminToken: admin.token,
    drainDelayMs: options.drainDelayMs,
  });
  // listen() opens the database first (the app's onStartup), then the port.
  try {
    await app.listen({ port: options.port, host: options.host });
  } catch (error) {
    await app.close();
    exitWith(listenFailure(error, options.host, options.port) ?? databaseFailure(error, databaseUrl), error);
  }
  // close() drains, finishes the requests in flight, then closes the database.
  // DRAIN_DELAY_MS set: always that long; unset: the default, once something probed /readyz.
  handleShutdownSignals(() =>
    app.close({ drain: options.drainDelayMs ?? true, timeout: options.shutdownTimeoutMs }),
  );
  const { port } = app.address()!;
  const base = `http://${options.host}:${port}`;
  console.log(
    `Enrollment API on ${base}/api/enroll/hello (${dialectOf(databaseUrl)}, pid ${process.pid}); docs at ${base}/openapi/docs; ${describeAdminToken(admin)}`,
  );
}

// The line for a failure the operator can fix; anything else is a bug and goes on with its stack.
function exitWith(line: string | undefined, error: unknown): never {
  if (line === undefined) throw error;
  console.error(line);
  process.exit(1);
}

// The primary waits a little longer than its workers' own drain and deadline before killing them.
await runWorkers({
  workers: options.workers,
  start: serve,
  shutdownTimeout: (options.drainDelayMs ?? DEFAULT_DRAIN_DELAY_MS) + options.shutdownTimeoutMs + 5_000,
});
