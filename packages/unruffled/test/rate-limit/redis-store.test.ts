import { createClient } from "redis";
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { rateLimit, redisStore } from "unruffled/rate-limit";
import { endpoint, path } from "unruffled/route";
import { startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startRedis, type TestRedis } from "../support/stores.ts";

vi.setConfig({ testTimeout: 60_000 });

const hello = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ hello: "you" }) });
const routes = [
  path("/hello", { endpoint: hello, rateLimits: [rateLimit({ name: "burst", limit: 2, window: 3600 })] }),
];

describe("redisStore({ client })", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.close());

  it("counts with the app's own client, under its prefix, with keys that expire once whole, and leaves the client open", async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const app = createApp({ routes, rateLimitStore: redisStore({ client, prefix: "mine:" }) });
      const server = await startServer(app);
      const statuses = [];
      for (let n = 0; n < 3; n++) statuses.push((await server.fetch("/hello")).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect(await client.keys("*")).toEqual(["mine:burst:address:127.0.0.1"]);
      // Redis lets the key expire once its quota is whole again: two units of 1,800 s each.
      const ttl = await client.pTTL("mine:burst:address:127.0.0.1");
      expect([ttl > 3_000_000, ttl <= 3_600_000]).toEqual([true, true]);
      await server.close();
      expect(client.isOpen).toBe(true);
      expect(await client.ping()).toBe("PONG");
    } finally {
      client.destroy();
    }
  });
});
