// The rate-limit benchmark's server: GET /hello unlimited, GET /limited the same endpoint behind a
// policy that never refuses (a billion per hour), counted by the store RATE_STORE names (memory,
// redis, postgres; STORE_URL). Listens on PORT.
import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { memoryStore, postgresStore, rateLimit, redisStore } from "unruffled/rate-limit";
import { endpoint, path } from "unruffled/route";

const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello, World!") });
const kind = process.env.RATE_STORE ?? "memory";
const url = process.env.STORE_URL ?? "";
const store =
  kind === "redis"
    ? redisStore({ url })
    : kind === "postgres"
      ? postgresStore({ connectionString: url })
      : memoryStore();
const app = createApp({
  settings: { LOGGING: { level: "error" } },
  routes: [
    path("/hello", { endpoint: hello }),
    path("/limited", {
      endpoint: hello,
      rateLimits: [rateLimit({ name: "bench", limit: 1_000_000_000, window: 3600 })],
    }),
  ],
  rateLimitStore: store,
});
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
process.on("SIGTERM", () => app.close({ timeout: 1_000 }).then(() => process.exit(0)));
