import { startServer } from "unruffled/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { app } from "./https.ts";

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer(app);
});
afterAll(() => server.close());

// The test plays the load balancer: it connects from loopback, which PROXIES trusts.
const viaProxy = (proto: string) => ({
  "x-forwarded-for": "203.0.113.7",
  "x-forwarded-proto": proto,
  "x-forwarded-host": "api.example.com",
});

it("answers a request the proxy received over HTTPS", async () => {
  const response = await server.fetch("/hello", { headers: viaProxy("https") });
  expect([response.status, await response.json()]).toEqual([200, { hello: "https://api.example.com" }]);
});

it("redirects one it received over plain HTTP", async () => {
  const response = await server.fetch("/hello?lang=en", { headers: viaProxy("http"), redirect: "manual" });
  expect([response.status, response.headers.get("location")]).toEqual([
    307,
    "https://api.example.com/hello?lang=en",
  ]);
});
