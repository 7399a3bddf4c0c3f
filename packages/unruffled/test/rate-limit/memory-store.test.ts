import { type Item, parseList } from "structured-headers";
import { createApp, exceptionHandler } from "unruffled";
import { JsonResponse } from "unruffled/http";
import {
  clientAddressKey,
  memoryStore,
  type RateLimitStore,
  rateLimit,
  TooManyRequestsError,
} from "unruffled/rate-limit";
import { endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { startServer } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonOf, serve } from "../support/serve.ts";

// 20 per hour: one unit comes back every 180 s, far longer than any test, so timing never matters.
const hourly = rateLimit({ name: "hourly", limit: 20, window: 3600 });
const burst = rateLimit({ name: "burst", limit: 3, window: 60 });

// A clock that stands still: the times in the headers do not depend on how fast the test runs.
const frozen = () => ({ rateLimitStore: memoryStore({ clock: () => 1_700_000_000_000 }) });

const hello = endpoint({
  params: { name: p.Query(z.string().default("you")) },
  returns: JsonResponse,
  handler: (_request, { name }) => new JsonResponse({ hello: name }),
});

/** The parsed members of a structured-field List: name → its parameters. */
function members(header: string | null): Record<string, Record<string, unknown>> {
  expect(header).not.toBeNull();
  const result: Record<string, Record<string, unknown>> = {};
  for (const [value, params] of parseList(header!) as Item[])
    result[String(value)] = Object.fromEntries(params);
  return result;
}

async function times(count: number, call: () => Promise<Response>): Promise<number[]> {
  const statuses = await Promise.all(Array.from({ length: count }, async () => (await call()).status));
  return statuses;
}

describe("a rate-limited route", () => {
  it("admits exactly the limit of concurrent requests and refuses the rest with 429", async () => {
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [hourly] })]);
    const statuses = await times(200, () => server.fetch("/hello"));
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(180);
  });

  it("sends RateLimit-Policy and RateLimit as structured fields on every answer", async () => {
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [hourly, burst] })], frozen());
    const first = await server.fetch("/hello");
    expect(first.status).toBe(200);
    expect(members(first.headers.get("ratelimit-policy"))).toEqual({
      hourly: { q: 20, w: 3600 },
      burst: { q: 3, w: 60 },
    });
    expect(members(first.headers.get("ratelimit"))).toEqual({
      hourly: { r: 19, t: 180 },
      burst: { r: 2, t: 20 },
    });
    await server.fetch("/hello");
    await server.fetch("/hello");
    const refused = await server.fetch("/hello");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("20");
    expect(members(refused.headers.get("ratelimit"))).toEqual({
      hourly: { r: 17, t: 540 },
      burst: { r: 0, t: 60 },
    });
    expect(await refused.json()).toEqual({
      detail: 'Too Many Requests: the quota of policy "burst" is exhausted; retry in 20 s',
    });
  });

  it("counts a refused request against no policy", async () => {
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [hourly, burst] })], frozen());
    await times(10, () => server.fetch("/hello"));
    const after = await server.fetch("/hello");
    expect(members(after.headers.get("ratelimit")).hourly).toEqual({ r: 17, t: 540 });
  });

  it("keys by the client's address when the route has no security scheme", async () => {
    const store = memoryStore();
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [burst] })], {
      rateLimitStore: store,
    });
    await server.fetch("/hello");
    expect(store.size).toBe(1);
    expect(store.keys()).toEqual(["burst:address:127.0.0.1"]);
  });

  it("keys by the principal of the route's security scheme", async () => {
    const bearer = httpBearer({
      verify: (token) => (token === "a" || token === "b" ? { sub: token } : undefined),
    });
    const me = endpoint({
      params: { user: p.Security(bearer) },
      returns: JsonResponse,
      handler: (_request, { user }) => new JsonResponse(user),
    });
    const server = await serve([path("/me", { endpoint: me, rateLimits: [burst] })]);
    const as = (token: string) => server.fetch("/me", { headers: { authorization: `Bearer ${token}` } });
    expect((await times(5, () => as("a"))).sort()).toEqual([200, 200, 200, 429, 429]);
    expect((await as("b")).status).toBe(200);
    expect((await as("a")).status).toBe(429);
  });

  it("counts a request that fails validation, and answers it with its own error and the headers", async () => {
    const strict = endpoint({
      params: { page: p.Query(z.int()) },
      returns: JsonResponse,
      handler: (_request, { page }) => new JsonResponse({ page }),
    });
    const server = await serve([path("/pages", { endpoint: strict, rateLimits: [burst] })], frozen());
    const invalid = await server.fetch("/pages?page=x");
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get("ratelimit")).toBe('"burst";r=2;t=20');
    await server.fetch("/pages?page=x");
    await server.fetch("/pages?page=1");
    const refused = await server.fetch("/pages?page=x");
    expect(refused.status).toBe(429);
  });

  it("counts a request that fails authentication against the client's address", async () => {
    const bearer = httpBearer({ verify: (token) => (token === "a" ? { sub: "a" } : undefined) });
    const me = endpoint({
      params: { user: p.Security(bearer) },
      returns: JsonResponse,
      handler: (_request, { user }) => new JsonResponse(user),
    });
    const store = memoryStore();
    const server = await serve([path("/me", { endpoint: me, rateLimits: [burst] })], {
      rateLimitStore: store,
    });
    expect((await times(4, () => server.fetch("/me"))).sort()).toEqual([401, 401, 401, 429]);
    expect((await server.fetch("/me", { headers: { authorization: "Bearer a" } })).status).toBe(200);
    expect(store.keys().sort()).toEqual(["burst:address:127.0.0.1", "burst:principal:a"]);
  });

  it("inherits the app's and the groups' policies, after them the route's own", async () => {
    const server = await serve(
      [
        path("/api", {
          rateLimits: [hourly],
          routes: [path("/hello", { endpoint: hello, rateLimits: [burst] })],
        }),
      ],
      { rateLimits: [rateLimit({ name: "app", limit: 100, window: 60 })] },
    );
    const answer = await server.fetch("/api/hello");
    expect(answer.headers.get("ratelimit-policy")).toBe(
      '"app";q=100;w=60, "hourly";q=20;w=3600, "burst";q=3;w=60',
    );
  });

  it("shares one quota of an app's or a group's policy across their routes", async () => {
    const server = await serve(
      [
        path("/api", {
          rateLimits: [burst],
          routes: [path("/a", { endpoint: hello }), path("/b", { endpoint: hello })],
        }),
        path("/c", { endpoint: hello }),
      ],
      { rateLimits: [rateLimit({ name: "app", limit: 5, window: 60 })], ...frozen() },
    );
    const answers: [string, number, string | null][] = [];
    for (const at of ["/api/a", "/api/b", "/api/a", "/api/b", "/c", "/c", "/c"]) {
      const answer = await server.fetch(at);
      answers.push([at, answer.status, answer.headers.get("ratelimit")]);
    }
    expect(answers).toEqual([
      ["/api/a", 200, '"app";r=4;t=12, "burst";r=2;t=20'],
      ["/api/b", 200, '"app";r=3;t=24, "burst";r=1;t=40'],
      ["/api/a", 200, '"app";r=2;t=36, "burst";r=0;t=60'],
      // Refused by the group's policy: no unit of the app's is used.
      ["/api/b", 429, '"app";r=2;t=36, "burst";r=0;t=60'],
      ["/c", 200, '"app";r=1;t=48'],
      ["/c", 200, '"app";r=0;t=60'],
      ["/c", 429, '"app";r=0;t=60'],
    ]);
  });

  it("leaves an unlimited route without rate-limit headers", async () => {
    const server = await serve([path("/hello", { endpoint: hello })]);
    const answer = await server.fetch("/hello");
    expect(answer.headers.get("ratelimit-policy")).toBeNull();
    expect(answer.headers.get("ratelimit")).toBeNull();
  });

  it("gives each request its own RateLimit while handlers that await overlap", async () => {
    // The memory store reuses its answer for the next request: a handler still running when others
    // arrive must keep the numbers of its own request.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived = 0;
    const slow = endpoint({
      returns: JsonResponse,
      handler: async () => {
        arrived++;
        if (arrived === 3) release();
        await gate;
        return new JsonResponse({ ok: true });
      },
    });
    const server = await serve([path("/slow", { endpoint: slow, rateLimits: [hourly] })], frozen());
    const answers = await Promise.all([1, 2, 3].map(() => server.fetch("/slow")));
    const remaining = answers.map((answer) => members(answer.headers.get("ratelimit")).hourly!.r);
    expect(remaining.sort()).toEqual([17, 18, 19]);
  });

  it("sends the legacy X-RateLimit headers when asked", async () => {
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [hourly, burst] })], {
      settings: { RATE_LIMITS: { legacy_headers: true } },
      ...frozen(),
    });
    const answer = await server.fetch("/hello");
    expect(answer.headers.get("x-ratelimit-limit")).toBe("3");
    expect(answer.headers.get("x-ratelimit-remaining")).toBe("2");
    expect(answer.headers.get("x-ratelimit-reset")).toBe("20");
  });

  it("gives back units at the policy's rate when it is faster than one a millisecond", async () => {
    // 2,000 a second: one unit every 500 µs. A clock that moves only when told.
    let now = 1_700_000_000_000;
    const fast = rateLimit({ name: "fast", limit: 2_000, window: 1 });
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [fast] })], {
      rateLimitStore: memoryStore({ clock: () => now }),
    });
    const burst = await times(2_001, () => server.fetch("/hello"));
    expect(burst.filter((status) => status === 200)).toHaveLength(2_000);
    now += 100;
    // 100 ms give back 200 units: 200 more are admitted (not 100, as at one a millisecond).
    const later = await times(201, () => server.fetch("/hello"));
    expect(later.filter((status) => status === 200)).toHaveLength(200);
    const refused = await server.fetch("/hello");
    expect(members(refused.headers.get("ratelimit"))).toEqual({ fast: { r: 0, t: 1 } });
  });

  it("charges a request's cost", async () => {
    const heavy = rateLimit({ name: "heavy", limit: 20, window: 3600, cost: 5 });
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [heavy] })]);
    const statuses = await times(6, () => server.fetch("/hello"));
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
  });

  it("charges each request the cost its function gives, request after request of one client", async () => {
    const byHeader = rateLimit({
      name: "weighted",
      limit: 10,
      window: 3600,
      cost: (request) => Number(request.headers["x-cost"]),
    });
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [byHeader] })], frozen());
    const statuses: number[] = [];
    for (const cost of [4, 4, 3, 2, 1]) {
      statuses.push((await server.fetch("/hello", { headers: { "x-cost": String(cost) } })).status);
    }
    expect(statuses).toEqual([200, 200, 429, 200, 429]);
  });

  it("answers 500 for a cost its function gives outside 1 to the limit, and charges nothing", async () => {
    const errors: string[] = [];
    const byHeader = rateLimit({
      name: "weighted",
      limit: 10,
      window: 3600,
      cost: (request) =>
        request.headers["x-cost"] === "text" ? ("3" as never) : Number(request.headers["x-cost"]),
    });
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [byHeader] })], {
      ...frozen(),
      logger: { error: (details: Record<string, unknown>) => errors.push((details.err as Error).message) },
    });
    for (const cost of ["0", "-2", "1.5", "abc", "11", "text"]) {
      const answer = await jsonOf(server.fetch("/hello", { headers: { "x-cost": cost } }));
      expect(answer).toEqual({ status: 500, body: { detail: "Internal Server Error" } });
    }
    expect(errors).toEqual(
      ["0", "-2", "1.5", "NaN", "11", '"3"'].map(
        (given) =>
          `rateLimit("weighted"): the cost function gave ${given}; a request's cost must be a whole number from 1 to the limit (10).`,
      ),
    );
    const after = await server.fetch("/hello", { headers: { "x-cost": "1" } });
    expect(members(after.headers.get("ratelimit"))).toEqual({ weighted: { r: 9, t: 360 } });
  });

  it("answers 429 as quota-exceeded problem details with ERRORS.format problem", async () => {
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [burst] })], {
      settings: { ERRORS: { format: "problem" } },
      ...frozen(),
    });
    await times(3, () => server.fetch("/hello"));
    const refused = await server.fetch("/hello", { headers: { "x-request-id": "req-429" } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(await jsonOf(refused.clone())).toEqual({
      status: 429,
      body: {
        type: "https://iana.org/assignments/http-problem-types#quota-exceeded",
        title: "Request cannot be satisfied as assigned quota has been exceeded",
        status: 429,
        detail: 'Too Many Requests: the quota of policy "burst" is exhausted; retry in 20 s',
        instance: "req-429",
        "violated-policies": ["burst"],
      },
    });
  });
  it("names every exhausted policy in violated-policies, and waits in Retry-After for the last to admit", async () => {
    const minute = rateLimit({ name: "minute", limit: 1, window: 60 });
    const hour = rateLimit({ name: "hour", limit: 1, window: 3600 });
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [minute, hour] })], {
      settings: { ERRORS: { format: "problem" } },
      ...frozen(),
    });
    expect((await server.fetch("/hello")).status).toBe(200);
    const refused = await server.fetch("/hello", { headers: { "x-request-id": "req-both" } });
    expect(refused.headers.get("retry-after")).toBe("3600");
    expect(await jsonOf(refused)).toEqual({
      status: 429,
      body: {
        type: "https://iana.org/assignments/http-problem-types#quota-exceeded",
        title: "Request cannot be satisfied as assigned quota has been exceeded",
        status: 429,
        detail: 'Too Many Requests: the quota of policies "minute", "hour" is exhausted; retry in 3600 s',
        instance: "req-both",
        "violated-policies": ["minute", "hour"],
      },
    });
  });

  it("forgets, when it sweeps, the keys whose quota is whole again, and decides them as keys never seen", async () => {
    let now = 1_700_000_000_000;
    const store = memoryStore({ clock: () => now });
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [burst] })], {
      rateLimitStore: store,
      settings: { PROXIES: { trusted: "loopback" } },
    });
    const from = (client: string) => server.fetch("/hello", { headers: { "x-forwarded-for": client } });
    await from("203.0.113.7");
    now += 30_000;
    await from("198.51.100.9");
    await from("198.51.100.9");
    // 20 s give one unit back: 203.0.113.7's quota is whole again (it used one 30 s ago), 198.51.100.9's not.
    store.sweep();
    expect(store.keys()).toEqual(["burst:address:198.51.100.9"]);
    expect(members((await from("203.0.113.7")).headers.get("ratelimit"))).toEqual({ burst: { r: 2, t: 20 } });
    expect(members((await from("198.51.100.9")).headers.get("ratelimit"))).toEqual({
      burst: { r: 0, t: 60 },
    });
  });

  it("sends Retry-After and the headers on the 429 of an app's own handler for TooManyRequestsError", async () => {
    const server = await serve([path("/hello", { endpoint: hello, rateLimits: [hourly, burst] })], {
      exceptionHandlers: [
        exceptionHandler(
          TooManyRequestsError,
          (error) => new JsonResponse({ code: "SLOW_DOWN", policies: error.policies }, { status: 429 }),
        ),
      ],
      ...frozen(),
    });
    await times(3, () => server.fetch("/hello"));
    const refused = await server.fetch("/hello");
    expect(await jsonOf(refused.clone())).toEqual({
      status: 429,
      body: { code: "SLOW_DOWN", policies: ["burst"] },
    });
    expect([
      refused.headers.get("retry-after"),
      refused.headers.get("ratelimit"),
      refused.headers.get("ratelimit-policy"),
    ]).toEqual(["20", '"hourly";r=17;t=540, "burst";r=0;t=60', '"hourly";q=20;w=3600, "burst";q=3;w=60']);
  });

  it("keeps the quotas of clients whose requests alternate apart", async () => {
    const burstOnly = [path("/hello", { endpoint: hello, rateLimits: [burst] })];
    const server = await serve(burstOnly, { settings: { PROXIES: { trusted: "loopback" } } });
    const statuses: Record<string, number[]> = { ann: [], bob: [] };
    for (let round = 0; round < 4; round++) {
      for (const [name, address] of [
        ["ann", "203.0.113.7"],
        ["bob", "198.51.100.9"],
      ] as const) {
        const response = await server.fetch("/hello", { headers: { "x-forwarded-for": address } });
        statuses[name]!.push(response.status);
      }
    }
    expect(statuses).toEqual({ ann: [200, 200, 200, 429], bob: [200, 200, 200, 429] });
  });

  it("keys a request by the client its trusted proxy forwards (PROXIES), and by the proxy's address without it", async () => {
    const burstOnly = [path("/hello", { endpoint: hello, rateLimits: [burst] })];
    const from = (client: string) => ({ headers: { "x-forwarded-for": client } });
    const behindProxy = await serve(burstOnly, { settings: { PROXIES: { trusted: "loopback" } } });
    const ann = await times(4, () => behindProxy.fetch("/hello", from("203.0.113.7")));
    const bob = await times(4, () => behindProxy.fetch("/hello", from("198.51.100.9")));
    expect([ann.filter((status) => status === 200), bob.filter((status) => status === 200)]).toEqual([
      [200, 200, 200],
      [200, 200, 200],
    ]);
    // Unlisted, the proxy's forwarding headers are anyone's to write: both share the peer's quota.
    const direct = await serve(burstOnly);
    const shared = await times(8, () => direct.fetch("/hello", from("203.0.113.7")));
    const spoofed = await times(4, () => direct.fetch("/hello", from("198.51.100.9")));
    expect([...shared, ...spoofed].filter((status) => status === 200)).toHaveLength(3);
  });
});

describe("audit-b: app.close() and the store", () => {
  it("closes the app's rate-limit store, once", async () => {
    const events: string[] = [];
    const inner = memoryStore();
    const store: RateLimitStore = {
      kind: "rate-limit-store",
      consume: (checks) => inner.consume(checks),
      close() {
        events.push("store closed");
      },
    };
    const app = createApp({
      routes: [path("/hello", { endpoint: hello, rateLimits: [hourly] })],
      rateLimitStore: store,
      onClose: () => void events.push("onClose"),
    });
    const server = await startServer(app);
    expect((await server.fetch("/hello")).headers.get("ratelimit")).toMatch(/^"hourly";r=19;t=\d+$/);
    await server.close();
    expect(events).toContain("store closed");
    expect(events.filter((event) => event === "store closed")).toHaveLength(1);
  });
});

describe("audit-b: a request past a limit", () => {
  it("is answered 429 without running the handler, and one policy given to two routes is one quota", async () => {
    const ran: string[] = [];
    const counting = (name: string) =>
      endpoint({
        returns: JsonResponse,
        handler: () => {
          ran.push(name);
          return new JsonResponse({ name });
        },
      });
    const pair = rateLimit({ name: "pair", limit: 2, window: 3600 });
    const server = await serve(
      [
        path("/first", { endpoint: counting("first"), rateLimits: [pair] }),
        path("/second", { endpoint: counting("second"), rateLimits: [pair] }),
      ],
      frozen(),
    );
    const answers: [string, number][] = [];
    for (const at of ["/first", "/second", "/first", "/second"]) {
      answers.push([at, (await server.fetch(at)).status]);
    }
    expect(answers).toEqual([
      ["/first", 200],
      ["/second", 200],
      ["/first", 429],
      ["/second", 429],
    ]);
    expect(ran).toEqual(["first", "second"]);
  });
});

describe("audit-b: a key of one's own, as docs/rate-limits.md's exports policy", () => {
  it("shares a tenant's quota between its users, and counts a refused token by clientAddressKey", async () => {
    const bearer = httpBearer({
      verify: (token) =>
        ({
          ann: { sub: "ann", tenant: "acme" },
          bob: { sub: "bob", tenant: "acme" },
          eve: { sub: "eve", tenant: "umbrella" },
        })[token],
    });
    const exports = rateLimit({
      name: "exports",
      limit: 30,
      window: 86_400,
      key: (request, principal) =>
        principal === undefined
          ? clientAddressKey(request)
          : `tenant:${(principal as { tenant: string }).tenant}`,
      cost: 10,
    });
    const exportAll = endpoint({
      params: { user: p.Security(bearer) },
      returns: JsonResponse,
      handler: (_request, { user }) => new JsonResponse({ sub: user.sub }),
    });
    const store = memoryStore({ clock: () => 1_700_000_000_000 });
    const server = await serve([path("/export", { endpoint: exportAll, rateLimits: [exports] })], {
      rateLimitStore: store,
    });
    const as = async (token?: string) => {
      const answer = await server.fetch("/export", {
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      });
      return [token ?? "none", answer.status, answer.headers.get("ratelimit")];
    };
    expect([await as("ann"), await as("bob"), await as("ann"), await as("bob"), await as("eve")]).toEqual([
      ["ann", 200, '"exports";r=20;t=28800'],
      ["bob", 200, '"exports";r=10;t=57600'],
      ["ann", 200, '"exports";r=0;t=86400'],
      ["bob", 429, '"exports";r=0;t=86400'],
      ["eve", 200, '"exports";r=20;t=28800'],
    ]);
    expect(await as("mallory")).toEqual(["mallory", 401, '"exports";r=20;t=28800']);
    expect(await as()).toEqual(["none", 401, '"exports";r=10;t=57600']);
    expect(store.keys().sort()).toEqual([
      "exports:address:127.0.0.1",
      "exports:tenant:acme",
      "exports:tenant:umbrella",
    ]);
  });
});
