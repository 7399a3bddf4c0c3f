// A cluster for the workers test. WORKERS_FIXTURE=crash: every worker fails at start-up.
// WORKERS_FIXTURE=serve: two workers answer GET /pid on PORT with their process id; once the file
// CRASH_MARKER names exists, a worker fails at start-up instead (a replacement after the start).
// Only the supervisor is imported up front, so that a crashing worker fails within milliseconds.
import { runWorkers } from "../../src/server/workers.ts";

async function serve(): Promise<void> {
  if (process.env.WORKERS_FIXTURE === "crash") failToStart();
  const { existsSync } = await import("node:fs");
  if (process.env.CRASH_MARKER && existsSync(process.env.CRASH_MARKER)) failToStart();
  const { createApp, handleShutdownSignals } = await import("unruffled");
  const { JsonResponse } = await import("unruffled/http");
  const { endpoint, path } = await import("unruffled/route");
  const pid = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ pid: process.pid }) });
  const app = createApp({ routes: [path("/pid", { endpoint: pid })] });
  await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
  // WORKERS_FIXTURE=stubborn: a shutdown that never finishes, which only the primary's SIGKILL ends.
  const shutdown =
    process.env.WORKERS_FIXTURE === "stubborn"
      ? () => new Promise<void>(() => {})
      : () => app.close({ timeout: 2_000 });
  handleShutdownSignals(shutdown, { log: { info() {}, error() {} } });
}

// One line and exit code 1, as the CLI and the enrollment service tell a failed start.
function failToStart(): never {
  console.error("cannot start");
  process.exit(1);
}

await runWorkers({
  workers: 2,
  start: serve,
  restartDelay: 100,
  maxRestartDelay: 400,
  // SHUTDOWN_TIMEOUT=default: the primary's own default.
  ...(process.env.SHUTDOWN_TIMEOUT === "default"
    ? {}
    : { shutdownTimeout: Number(process.env.SHUTDOWN_TIMEOUT ?? 5_000) }),
});
