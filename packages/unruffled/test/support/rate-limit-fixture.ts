// A rate-limited app for the store tests, run as a process of its own: RATE_STORE=memory, worker,
// redis or postgres (STORE_URL), WORKERS processes sharing PORT. GET /pid is unlimited; GET /limited
// admits 20 per hour per client address. Every answer says which process gave it (x-pid).
import { runWorkers } from "../../src/server/workers.ts";

async function serve(): Promise<void> {
  const { createApp, handleShutdownSignals } = await import("unruffled");
  const { JsonResponse } = await import("unruffled/http");
  const { endpoint, path } = await import("unruffled/route");
  const limits = await import("unruffled/rate-limit");
  const kind = process.env.RATE_STORE;
  const url = process.env.STORE_URL!;
  const store =
    kind === "worker"
      ? limits.workerStore()
      : kind === "redis"
        ? limits.redisStore({ url })
        : kind === "postgres"
          ? limits.postgresStore({ connectionString: url })
          : limits.memoryStore();
  const pid = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ pid: process.pid }) });
  const app = createApp({
    // A store that answers late would be failed open after the default 1 s, and admit more than the
    // limit: on a busy machine the first answers (the connection being made) can take that long.
    settings: { LOGGING: { level: "error" }, RATE_LIMITS: { store_timeout: 60_000 } },
    routes: [
      path("/pid", { endpoint: pid }),
      path("/limited", {
        endpoint: pid,
        name: "limited",
        rateLimits: [limits.rateLimit({ name: "hourly", limit: 20, window: 3600 })],
      }),
    ],
    middleware: [
      async (request, next) => {
        const response = await next(request);
        response.headers["x-pid"] = String(process.pid);
        return response;
      },
    ],
    rateLimitStore: store,
  });
  await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
  handleShutdownSignals(() => app.close({ timeout: 2_000 }), { log: { info() {}, error() {} } });
}

await runWorkers({ workers: Number(process.env.WORKERS ?? 1), start: serve, shutdownTimeout: 5_000 });
