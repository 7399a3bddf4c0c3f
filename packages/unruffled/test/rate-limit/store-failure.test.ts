import { waitFor } from "process-support";
import { JsonResponse } from "unruffled/http";
import { rateLimit, redisStore } from "unruffled/rate-limit";
import { endpoint, path } from "unruffled/route";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { serve } from "../support/serve.ts";
import { startRedis, type TestRedis } from "../support/stores.ts";

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
