import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import {
  createApp,
  DEFAULT_CHECK_TIMEOUT_MS,
  DEFAULT_HEALTH_PATHS,
  HttpError,
  type Middleware,
  ValueError,
} from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { rateLimit } from "unruffled/rate-limit";
import { dependency, endpoint, path } from "unruffled/route";
import { startServer, testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";

const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello") });
const routes = [path("/hello", { endpoint: hello })];
// The checks that fail here would log a warning each.
const settings = { LOGGING: { level: "silent" as const } };

/** A promise with its resolve, to hold a check or a hook until the test lets it go. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe("the health routes", () => {
  it("are /livez, /readyz and /startupz by default, each answering 200 with its JSON", async () => {
    const client = testClient(createApp({ routes }));
    const answers = await Promise.all(
      ["/livez", "/readyz", "/startupz"].map(async (at) => {
        const response = await client.get(at);
        return [at, response.status, response.headers.get("cache-control"), response.json()];
      }),
    );
    expect(answers).toEqual([
      ["/livez", 200, "no-store", { status: "pass" }],
      ["/readyz", 200, "no-store", { status: "pass", checks: {} }],
      ["/startupz", 200, "no-store", { status: "pass" }],
    ]);
    expect(DEFAULT_HEALTH_PATHS).toEqual({ live: "/livez", ready: "/readyz", startup: "/startupz" });
  });

  it("liveness checks nothing external: a failing readiness check leaves it at 200", async () => {
    const client = testClient(
      createApp({
        routes,
        settings,
        health: {
          checks: {
            database: () => {
              throw new Error("down");
            },
          },
        },
      }),
    );
    expect((await client.get("/livez")).status).toBe(200);
    expect((await client.get("/readyz")).status).toBe(503);
  });

  it("readiness runs the checks concurrently: each starts before any finishes", async () => {
    const first = gate();
    const second = gate();
    const app = createApp({
      routes,
      health: {
        checks: {
          // Each waits for the other to have started: run one after the other, neither would end.
          first: async () => {
            first.open();
            await second.opened;
          },
          second: async () => {
            second.open();
            await first.opened;
          },
        },
        timeoutMs: 60_000,
      },
    });
    const response = await testClient(app).get("/readyz");
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({
      status: "pass",
      checks: {
        first: { status: "pass", durationMs: expect.any(Number) },
        second: { status: "pass", durationMs: expect.any(Number) },
      },
    });
  });

  it("readiness gives each check its own timeout and answers 503 naming the one that timed out", async () => {
    let aborted: unknown;
    const app = createApp({
      routes,
      settings,
      health: {
        checks: {
          quick: () => undefined,
          stuck: {
            check: (signal) =>
              new Promise((_, reject) => {
                signal.addEventListener("abort", () => {
                  aborted = signal.reason;
                  reject(signal.reason);
                });
              }),
            timeoutMs: 20,
          },
        },
        timeoutMs: 60_000,
      },
    });
    const response = await testClient(app).get("/readyz");
    expect(response.status).toBe(503);
    expect(response.json()).toEqual({
      status: "fail",
      checks: {
        quick: { status: "pass", durationMs: expect.any(Number) },
        stuck: { status: "fail", durationMs: expect.any(Number), error: "timed out after 20 ms" },
      },
    });
    expect((aborted as Error).message).toBe('The health check "stuck" timed out after 20 ms');
  });

  it("readiness answers 503 for a check that throws, names the error's class only, and logs it once", async () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    let healthy = false;
    const app = createApp({
      routes,
      settings: { LOGGING: { level: "info", destination, access_log: false } },
      health: {
        checks: {
          database: async () => {
            if (!healthy) throw new TypeError("password authentication failed for user postgres");
          },
        },
      },
    });
    const client = testClient(app);
    const first = await client.get("/readyz");
    await client.get("/readyz");
    expect([first.status, first.json()]).toEqual([
      503,
      {
        status: "fail",
        checks: { database: { status: "fail", durationMs: expect.any(Number), error: "TypeError" } },
      },
    ]);
    healthy = true;
    expect((await client.get("/readyz")).status).toBe(200);
    expect(lines.map((line) => [line.level, line.msg, line.check, line.reason])).toEqual([
      [40, "Health check failed", "database", "TypeError"],
      [30, "Health check passes again", "database", undefined],
    ]);
    expect((lines[0]!.err as { message: string }).message).toBe(
      "password authentication failed for user postgres",
    );
  });

  it("readiness fails a check that rejects or throws without a reason", async () => {
    const app = createApp({
      routes,
      settings,
      health: {
        checks: {
          // A socket's "error" handler that rejects with nothing, and a bare `throw undefined`.
          rejected: () => Promise.reject(),
          thrown: () => {
            throw undefined;
          },
        },
      },
    });
    const response = await testClient(app).get("/readyz");
    expect([response.status, response.json()]).toEqual([
      503,
      {
        status: "fail",
        checks: {
          rejected: { status: "fail", durationMs: expect.any(Number), error: "failed" },
          thrown: { status: "fail", durationMs: expect.any(Number), error: "failed" },
        },
      },
    ]);
  });

  it("readiness passes a check that resolves, whatever its value", async () => {
    const app = createApp({
      routes,
      health: { checks: { cache: async () => "timeout", database: () => ({ rows: [{ "?column?": 1 }] }) } },
    });
    const response = await testClient(app).get("/readyz");
    expect([response.status, response.json()]).toEqual([
      200,
      {
        status: "pass",
        checks: {
          cache: { status: "pass", durationMs: expect.any(Number) },
          database: { status: "pass", durationMs: expect.any(Number) },
        },
      },
    ]);
  });

  it("readiness fails a check given no timeout once DEFAULT_CHECK_TIMEOUT_MS (1 s) has passed", async () => {
    expect(DEFAULT_CHECK_TIMEOUT_MS).toBe(1000);
    let aborted: unknown;
    const app = createApp({
      routes,
      settings,
      health: {
        checks: {
          database: (signal) =>
            new Promise((_, reject) => {
              signal.addEventListener("abort", () => {
                aborted = signal.reason;
                reject(signal.reason);
              });
            }),
        },
      },
    });
    const response = await testClient(app).get("/readyz");
    expect([response.status, response.json()]).toEqual([
      503,
      {
        status: "fail",
        checks: {
          database: { status: "fail", durationMs: expect.any(Number), error: "timed out after 1000 ms" },
        },
      },
    ]);
    expect((aborted as Error).message).toBe('The health check "database" timed out after 1000 ms');
  });

  it("readiness shares one run of the checks between probes that arrive together", async () => {
    let runs = 0;
    const release = gate();
    const app = createApp({
      routes,
      health: {
        checks: {
          database: async () => {
            runs++;
            await release.opened;
          },
        },
      },
    });
    const client = testClient(app);
    const answers = Promise.all([client.get("/readyz"), client.get("/readyz"), client.get("/readyz")]);
    await new Promise((resolve) => setImmediate(resolve));
    release.open();
    expect((await answers).map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(runs).toBe(1);
  });

  it("start-up and readiness answer 503 until the onStartup hooks have finished, then 200", async () => {
    const hook = gate();
    const app = createApp({ routes, onStartup: () => hook.opened });
    const server = createServer(app.nodeHandler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const get = async (at: string) => {
      const response = await fetch(`http://127.0.0.1:${port}${at}`);
      return [response.status, await response.json()];
    };
    try {
      const starting = app.startup();
      expect(await get("/startupz")).toEqual([503, { status: "fail", reason: "starting", checks: {} }]);
      expect(await get("/readyz")).toEqual([503, { status: "fail", reason: "starting", checks: {} }]);
      expect(await get("/livez")).toEqual([200, { status: "pass" }]);
      hook.open();
      await starting;
      expect(await get("/startupz")).toEqual([200, { status: "pass" }]);
      expect(await get("/readyz")).toEqual([200, { status: "pass", checks: {} }]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("are not in the OpenAPI document unless health.openapi is true", () => {
    const settings = { OPENAPI: { info: { title: "T", version: "1" } } };
    const paths = (health?: { openapi: boolean }) =>
      Object.keys(createApp({ routes, settings, ...(health && { health }) }).openapi().paths ?? {});
    expect(paths()).toEqual(["/hello"]);
    expect(paths({ openapi: true })).toEqual(["/hello", "/livez", "/startupz", "/readyz"]);
  });

  it("run outside the app's middleware, dependencies and security", async () => {
    const refuseAll: Middleware = () => new JsonResponse({ detail: "refused" }, { status: 401 });
    const mustLogIn = dependency({
      resolve: () => {
        throw new HttpError(401, "Not authenticated");
      },
    });
    const client = testClient(createApp({ routes, middleware: [refuseAll], dependencies: [mustLogIn] }));
    expect((await client.get("/hello")).status).toBe(401);
    expect([(await client.get("/readyz")).status, (await client.get("/livez")).status]).toEqual([200, 200]);
  });

  it("are not counted by the app's rate limits: a probe never uses a quota or meets a 429", async () => {
    const app = createApp({ routes, rateLimits: [rateLimit({ name: "all", limit: 1, window: 3600 })] });
    const client = testClient(app);
    const probes = [];
    for (let n = 0; n < 3; n++) {
      const response = await client.get("/readyz");
      probes.push([response.status, response.headers.get("ratelimit")]);
    }
    expect(probes).toEqual([
      [200, null],
      [200, null],
      [200, null],
    ]);
    const hello = await client.get("/hello");
    expect([hello.status, hello.headers.get("ratelimit")]).toEqual([200, '"all";r=0;t=3600']);
  });

  it("write their access log records at debug, not info", async () => {
    const lines: { level: number; path: string }[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    for (const level of ["info", "debug"] as const) {
      const client = testClient(createApp({ routes, settings: { LOGGING: { level, destination } } }));
      await client.get("/readyz");
      await client.get("/hello");
    }
    expect(lines.map((line) => [line.level, line.path])).toEqual([
      [30, "/hello"],
      [20, "/readyz"],
      [30, "/hello"],
    ]);
  });

  it("take the paths given; false leaves a route out; a path the app serves keeps the app's route", async () => {
    const own = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("mine") });
    const app = createApp({
      routes: [...routes, path("/readyz", { endpoint: own })],
      health: { paths: { live: "/health/live", startup: false } },
    });
    const client = testClient(app);
    expect((await client.get("/health/live")).status).toBe(200);
    expect((await client.get("/livez")).status).toBe(404);
    expect((await client.get("/startupz")).status).toBe(404);
    expect((await client.get("/readyz")).text).toBe("mine");
  });

  it("are left out with health: false", async () => {
    const client = testClient(createApp({ routes, health: false }));
    expect([(await client.get("/livez")).status, (await client.get("/readyz")).status]).toEqual([404, 404]);
  });

  it("refuse options that are not theirs, with a message that names them", () => {
    expect(() => createApp({ routes, health: { check: {} } as never })).toThrow(
      new ValueError('Unknown health option "check"; use checks, timeoutMs, paths, openapi, drainDelayMs.'),
    );
    expect(() => createApp({ routes, health: { paths: { ready: "readyz" } } })).toThrow(
      new ValueError(
        'The health path "ready" must be a path such as "/readyz" (no placeholders), or false; got "readyz".',
      ),
    );
    expect(() => createApp({ routes, health: { timeoutMs: 0 } })).toThrow(
      new ValueError(
        'The health option "timeoutMs" must be a whole number of milliseconds of at least 1; got 0.',
      ),
    );
    expect(() => createApp({ routes, health: { checks: { db: "select 1" as never } } })).toThrow(
      new ValueError('The health check "db" must be a function, or { check, timeoutMs }.'),
    );
  });
});

/** A GET on one keep-alive agent connection; the answer's status, Connection header and body. */
function get(port: number, at: string, agent?: import("node:http").Agent) {
  return new Promise<[number, string | undefined, string]>((resolve, reject) => {
    const outgoing = httpRequest({ host: "127.0.0.1", port, path: at, agent }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        body += chunk;
      });
      response.on("end", () => resolve([response.statusCode!, response.headers.connection, body]));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("a drain", () => {
  it("turns readiness to 503 at once, keeps serving, and closes keep-alive connections after each answer", async () => {
    const app = createApp({ routes });
    const server = await startServer(app);
    const port = Number(new URL(server.url).port);
    const { Agent } = await import("node:http");
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await get(port, "/hello", agent)).toEqual([200, "keep-alive", "Hello"]);
      const draining = app.drain(600_000);
      expect(await get(port, "/readyz", agent)).toEqual([
        503,
        "close",
        JSON.stringify({ status: "fail", reason: "draining", checks: {} }),
      ]);
      expect(await get(port, "/hello", agent)).toEqual([200, "close", "Hello"]);
      expect(await get(port, "/livez", agent)).toEqual([200, "close", JSON.stringify({ status: "pass" })]);
      // close() ends the drain's wait: it was asked for now.
      await server.close();
      await draining;
    } finally {
      agent.destroy();
    }
  });

  it("close({ drain: true }) waits the drain delay only once readiness has been asked for", async () => {
    // A delay no test could wait out: close() resolving proves that it did not wait.
    const app = createApp({ routes, health: { drainDelayMs: 600_000 } });
    await app.listen({ port: 0 });
    await app.close({ drain: true });

    const watched = createApp({ routes, health: { drainDelayMs: 600_000 } });
    const server = await startServer(watched);
    const port = Number(new URL(server.url).port);
    expect((await get(port, "/readyz"))[0]).toBe(200);
    let closed = false;
    const closing = watched.close({ drain: true }).then(() => {
      closed = true;
    });
    // Still serving: readiness 503, other routes 200.
    expect((await get(port, "/readyz"))[0]).toBe(503);
    expect((await get(port, "/hello"))[0]).toBe(200);
    expect(closed).toBe(false);
    await watched.close();
    await closing;
    await server.close();
  });

  it("answers readiness 503 draining without running the checks", async () => {
    let runs = 0;
    const app = createApp({
      routes,
      health: {
        checks: {
          database: () => {
            runs++;
          },
        },
      },
    });
    const server = await startServer(app);
    const port = Number(new URL(server.url).port);
    expect((await get(port, "/readyz"))[0]).toBe(200);
    expect(runs).toBe(1);
    const draining = app.drain(600_000);
    expect(await get(port, "/readyz")).toEqual([
      503,
      "close",
      JSON.stringify({ status: "fail", reason: "draining", checks: {} }),
    ]);
    expect(runs).toBe(1);
    await server.close();
    await draining;
  });

  it("close({ drain: ms }) waits that long even when nobody asked for readiness", async () => {
    const app = createApp({ routes });
    const server = await startServer(app);
    const port = Number(new URL(server.url).port);
    let closed = false;
    // A delay no test could wait out: still serving after requests made meanwhile proves that it waits.
    const closing = app.close({ drain: 600_000 }).then(() => {
      closed = true;
    });
    expect(await get(port, "/hello")).toEqual([200, "close", "Hello"]);
    expect((await get(port, "/readyz"))[0]).toBe(503);
    expect(closed).toBe(false);
    await app.close();
    await closing;
    await server.close();
  });

  it("close({ drain: true }) of an app started again waits only for a probe since that start", async () => {
    // A delay no test could wait out: close() resolving proves that it did not wait.
    const app = createApp({ routes, health: { drainDelayMs: 600_000 } });
    const first = await startServer(app);
    expect((await get(first.port, "/readyz"))[0]).toBe(200);
    await app.close();
    await app.listen({ port: 0 });
    await app.close({ drain: true });
  });

  it("ends with readiness back at 200 when the closed app starts again", async () => {
    const app = createApp({ routes });
    await app.listen({ port: 0 });
    await app.close({ drain: 1 });
    const server = await startServer(app);
    try {
      expect((await server.fetch("/readyz")).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
