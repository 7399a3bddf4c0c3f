import { waitFor } from "process-support";
import { createApp, type Settings } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { postgresStore, type RateLimitStore, rateLimit, redisStore } from "unruffled/rate-limit";
import { endpoint, path } from "unruffled/route";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { serve } from "../support/serve.ts";
import { silentRelay } from "../support/silent-relay.ts";
import { createPostgresDatabase, startRedis, type TestRedis } from "../support/stores.ts";

vi.setConfig({ testTimeout: 120_000 });

const hello = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ hello: "you" }) });
const routes = [
  path("/hello", { endpoint: hello, rateLimits: [rateLimit({ name: "hourly", limit: 20, window: 3600 })] }),
];

describe("when the store fails mid-run (Redis stopped)", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.close());

  it("fails open by default: admits without limits, warns once per interval, and limits again once Redis is back", async () => {
    const logger = { error: vi.fn(), warn: vi.fn() };
    const server = await serve(routes, { rateLimitStore: redisStore({ url: redis.url }), logger });
    const before = await server.fetch("/hello");
    expect(before.status).toBe(200);
    expect(before.headers.get("ratelimit")).toBe('"hourly";r=19;t=180');

    await redis.stop();
    for (let attempt = 0; attempt < 3; attempt++) {
      const during = await server.fetch("/hello");
      expect(during.status).toBe(200);
      expect(during.headers.get("ratelimit-policy")).toBe('"hourly";q=20;w=3600');
      expect(during.headers.get("ratelimit")).toBeNull();
    }
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![1]).toBe(
      "The rate-limit store cannot be reached: requests are admitted without limits",
    );
    expect(logger.error).not.toHaveBeenCalled();

    // A new Redis has no state: the first answer counts from a whole quota again.
    await redis.start();
    const after = await waitFor(
      "the limits to apply again",
      async () => {
        const answer = await server.fetch("/hello");
        return answer.headers.get("ratelimit") ?? undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    expect(after).toBe('"hourly";r=19;t=180');
  });

  it("fails closed with RATE_LIMITS.on_store_failure closed: 503", async () => {
    const logger = { error: vi.fn(), warn: vi.fn() };
    const server = await serve(routes, {
      rateLimitStore: redisStore({ url: redis.url }),
      settings: { RATE_LIMITS: { on_store_failure: "closed" } },
      logger,
    });
    expect((await server.fetch("/hello")).status).toBe(200);

    await redis.stop();
    const during = await server.fetch("/hello");
    expect(during.status).toBe(503);
    expect(await during.json()).toEqual({
      detail: "Service Unavailable: the rate-limit store cannot be reached",
    });
    expect(during.headers.get("ratelimit-policy")).toBe('"hourly";q=20;w=3600');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![1]).toBe(
      "The rate-limit store cannot be reached: limited routes answer 503",
    );
    await redis.start();
  });
});

describe("when the store takes the connection and never answers", () => {
  /** The limited route served with `store` and a store timeout of 200 ms; the logger records warnings. */
  async function serveWith(store: RateLimitStore, settings: Settings = {}) {
    const logger = { error: vi.fn(), warn: vi.fn() };
    const app = createApp({
      routes,
      rateLimitStore: store,
      settings: { RATE_LIMITS: { store_timeout: 200, ...settings.RATE_LIMITS } },
      logger,
    });
    return { server: await startServer(app), logger };
  }
  const redisAt = (port: number) => redisStore({ url: `redis://127.0.0.1:${port}` });
  // The store counts through the relay: its first answers may come past the 200 ms store_timeout on
  // a busy machine (the request then goes uncounted, failing open), so a test waits for one counted.
  const COUNTED = /^"hourly";r=\d+;t=\d+$/;
  const countedThrough = async (server: RunningServer) =>
    (await server.fetch("/hello")).headers.get("ratelimit") ?? "not counted";

  it("admits the request once RATE_LIMITS.store_timeout has passed, failing open, and closes", async () => {
    const silent = await silentRelay();
    const { server, logger } = await serveWith(redisAt(silent.port));
    const answer = await server.fetch("/hello");
    expect([answer.status, answer.headers.get("ratelimit"), await answer.json()]).toEqual([
      200,
      null,
      { hello: "you" },
    ]);
    expect(logger.warn.mock.calls.map(([details, message]) => [details.err.message, message])).toEqual([
      [
        "The rate-limit store did not answer within 200 ms",
        "The rate-limit store cannot be reached: requests are admitted without limits",
      ],
    ]);
    await server.close();
    await silent.close();
  });

  it("gives a store RATE_LIMITS.store_timeout's default, 1,000 ms, when the setting is left out", async () => {
    const silent = await silentRelay();
    const logger = { error: vi.fn(), warn: vi.fn() };
    const server = await startServer(createApp({ routes, rateLimitStore: redisAt(silent.port), logger }));
    const answer = await server.fetch("/hello");
    expect([answer.status, answer.headers.get("ratelimit")]).toEqual([200, null]);
    expect(logger.warn.mock.calls.map(([details]) => details.err.message)).toEqual([
      "The rate-limit store did not answer within 1000 ms",
    ]);
    await server.close();
    await silent.close();
  });

  it("answers 503 past the timeout when failing closed", async () => {
    const silent = await silentRelay();
    const { server } = await serveWith(redisAt(silent.port), { RATE_LIMITS: { on_store_failure: "closed" } });
    const answer = await server.fetch("/hello");
    expect([answer.status, await answer.json()]).toEqual([
      503,
      { detail: "Service Unavailable: the rate-limit store cannot be reached" },
    ]);
    await server.close();
    await silent.close();
  });

  it("closes while its client connects again to a Redis that went silent", async () => {
    const redis = await startRedis();
    const relay = await silentRelay(redis.port);
    const { server } = await serveWith(redisAt(relay.port));
    await expect.poll(() => countedThrough(server)).toMatch(COUNTED);
    // The connection drops; the client connects again and waits for the replies of its handshake.
    relay.silence();
    expect((await server.fetch("/hello")).status).toBe(200);
    await server.close();
    await relay.close();
    await redis.close();
  });

  it("closes a PostgreSQL store whose server stopped answering on an open connection", async () => {
    const database = await createPostgresDatabase();
    const relay = await silentRelay(Number(new URL(database.url).port));
    const through = new URL(database.url);
    through.port = String(relay.port);
    const store = postgresStore({
      connectionString: through.toString(),
      queryTimeout: 300,
      sweepInterval: 0,
    });
    const { server } = await serveWith(store);
    await expect.poll(() => countedThrough(server)).toMatch(COUNTED);
    // The pooled connection stays open, and its next query is never answered.
    relay.mute();
    expect((await server.fetch("/hello")).status).toBe(200);
    await server.close();
    await relay.close();
    await database.drop();
  });
});

describe("audit-b: RATE_LIMITS.warn_interval", () => {
  // A store that is down for good: every request of a limited route meets its failure.
  const down: RateLimitStore = {
    kind: "rate-limit-store",
    consume: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379")),
  };
  const WARNING = "The rate-limit store cannot be reached: requests are admitted without limits";

  it("warns for every failure with warn_interval 0", async () => {
    const logger = { error: vi.fn(), warn: vi.fn() };
    const server = await serve(routes, {
      rateLimitStore: down,
      settings: { RATE_LIMITS: { warn_interval: 0 } },
      logger,
    });
    for (let attempt = 0; attempt < 3; attempt++) expect((await server.fetch("/hello")).status).toBe(200);
    expect(logger.warn.mock.calls.map(([details, message]) => [details.err.message, message])).toEqual(
      Array.from({ length: 3 }, () => ["connect ECONNREFUSED 127.0.0.1:6379", WARNING]),
    );
  });

  it("warns again once warn_interval has passed since the last warning", async () => {
    const logger = { error: vi.fn(), warn: vi.fn() };
    const server = await serve(routes, {
      rateLimitStore: down,
      settings: { RATE_LIMITS: { warn_interval: 200 } },
      logger,
    });
    await waitFor(
      "a second warning",
      async () => {
        expect((await server.fetch("/hello")).status).toBe(200);
        return logger.warn.mock.calls.length >= 2 ? true : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 20 },
    );
    expect(logger.warn.mock.calls.slice(0, 2).map(([, message]) => message)).toEqual([WARNING, WARNING]);
  });
});
