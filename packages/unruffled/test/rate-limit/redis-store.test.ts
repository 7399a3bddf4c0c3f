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

  it("counts with the app's own client, under its prefix, and leaves that client open when the app closes", async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const app = createApp({ routes, rateLimitStore: redisStore({ client, prefix: "mine:" }) });
      const server = await startServer(app);
      const statuses = [];
      for (let n = 0; n < 3; n++) statuses.push((await server.fetch("/hello")).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect(await client.keys("*")).toEqual(["mine:burst:address:127.0.0.1"]);
      await server.close();
      expect(client.isOpen).toBe(true);
      expect(await client.ping()).toBe("PONG");
    } finally {
      client.destroy();
    }
  });
});
