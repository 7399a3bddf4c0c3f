// A cluster for the workers test. WORKERS_FIXTURE=crash: every worker fails at start-up.
// WORKERS_FIXTURE=serve: two workers answer GET /pid on PORT with their process id.
// Only the supervisor is imported up front, so that a crashing worker fails within milliseconds.
import { runWorkers } from "../../src/server/workers.ts";

async function serve(): Promise<void> {
  if (process.env.WORKERS_FIXTURE === "crash") throw new Error("cannot start");
  const { createApp, handleShutdownSignals } = await import("unruffled");
  const { JsonResponse } = await import("unruffled/http");
  const { endpoint, path } = await import("unruffled/route");
  const pid = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ pid: process.pid }) });
  const app = createApp({ routes: [path("/pid", { endpoint: pid })] });
  await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
  handleShutdownSignals(() => app.close({ timeout: 2_000 }), { log: { info() {}, error() {} } });
}

await runWorkers({
  workers: 2,
  start: serve,
  restartDelay: 100,
  maxRestartDelay: 400,
  shutdownTimeout: 5_000,
});
