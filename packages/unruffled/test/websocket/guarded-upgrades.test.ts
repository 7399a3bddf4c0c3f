// docs/middleware.md, "Middleware and WebSocket upgrades": an upgrade runs no middleware, but a
// middleware of the app with a `guardUpgrade` check refuses an upgrade before its route is looked up,
// with the app's HTTP answer; the others never see an upgrade. Read off real connections.
import type { Server } from "node:http";
import { createConnection } from "node:net";
import { type AppOptions, createApp, HttpError, type Middleware, trustedHost } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { dependency, p, path } from "unruffled/route";
import { startServer, testClient, type WebSocketRefused } from "unruffled/testing";
import { websocket } from "unruffled/websocket";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { openConnections, upgradeAnswer } from "./upgrade-answer.ts";

const noop = z.object({ type: z.literal("noop") });

/** What ran on the server's side: the route's dependency, the middleware on plain requests. */
const journal: string[] = [];

const entered = dependency({
  resolve: () => {
    journal.push("dependency");
    return 1;
  },
});
const client = websocket({
  params: { entered: p.Depends(entered) },
  inbound: noop,
  outbound: z.object({ origin: z.string(), address: z.string() }),
  async handler(socket, _params, request) {
    await socket.send({ origin: request.client.origin ?? "", address: request.client.address ?? "" });
  },
});

const apps: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

async function listening(options: Omit<AppOptions, "routes">): Promise<{ port: number; server: Server }> {
  const app = createApp({ ...options, routes: [path("/client", { websocket: client })] });
  apps.push(app);
  const server = await app.listen({ port: 0, host: "127.0.0.1" });
  return { port: app.address()!.port, server };
}

/** The user's own middleware: an API key on every request, and on every upgrade through guardUpgrade. */
function requireKey(request: { header(name: string): unknown }): undefined {
  if (request.header("x-api-key") !== "s3cret") throw new HttpError(401, "Send the header X-API-Key");
}
const apiKey: Middleware = (request, next) => {
  requireKey(request);
  return next(request);
};
apiKey.guardUpgrade = requireKey;

/** Middleware that makes no sense on an upgrade, as cors() or compression(): it is never called for one. */
const plainOnly: Middleware = (request, next) => {
  journal.push(`plain-only ${request.path}`);
  return next(request);
};

describe("a middleware's guardUpgrade", () => {
  it("refuses an upgrade with the app's answer to what it throws, before the route's dependencies, and leaves no connection open", async () => {
    const { port, server } = await listening({ middleware: [apiKey] });
    journal.length = 0;
    const refused = await upgradeAnswer(port, "/client");
    expect([refused.status, refused.headers.connection, refused.body]).toEqual([
      401,
      "close",
      { detail: "Send the header X-API-Key" },
    ]);
    expect(journal).toEqual([]);
    await expect.poll(() => openConnections(server), { timeout: 15_000 }).toBe(0);
    expect((await upgradeAnswer(port, "/client", { "x-api-key": "s3cret" })).status).toBe(101);
    expect(journal).toEqual(["dependency"]);
  });

  it("runs before the upgrade is routed: an unknown path is refused by the guard, as its 404 is by middleware", async () => {
    const { port } = await listening({ middleware: [apiKey] });
    expect((await upgradeAnswer(port, "/nowhere")).status).toBe(401);
    expect((await upgradeAnswer(port, "/nowhere", { "x-api-key": "s3cret" })).status).toBe(404);
  });

  it("is not asked of a middleware without one: it never sees an upgrade", async () => {
    const { port } = await listening({ middleware: [plainOnly] });
    journal.length = 0;
    expect((await upgradeAnswer(port, "/client")).status).toBe(101);
    expect(journal).toEqual(["dependency"]);
  });

  it("runs in the middleware's order, the first refusal answering, and may be async or answer with a response", async () => {
    const calls: string[] = [];
    const first: Middleware = (request, next) => next(request);
    first.guardUpgrade = async (request) => {
      calls.push("first");
      await new Promise((resolve) => setImmediate(resolve));
      return request.query.moved === "1" ? new PlainTextResponse("Moved", { status: 409 }) : undefined;
    };
    const second: Middleware = (request, next) => next(request);
    second.guardUpgrade = () => {
      calls.push("second");
      throw new HttpError(403, "The second guard refuses");
    };
    const { port } = await listening({ middleware: [first, second] });
    const moved = await upgradeAnswer(port, "/client?moved=1");
    expect([moved.status, moved.body, calls]).toEqual([409, "Moved", ["first"]]);
    calls.length = 0;
    const refused = await upgradeAnswer(port, "/client");
    expect([refused.status, refused.body, calls]).toEqual([
      403,
      { detail: "The second guard refuses" },
      ["first", "second"],
    ]);
  });

  it("answers 500 for a guard that returns something that is no response", async () => {
    const broken: Middleware = (request, next) => next(request);
    broken.guardUpgrade = () => "yes" as never;
    const { port } = await listening({ middleware: [broken], logger: { error: () => {} } });
    const answer = await upgradeAnswer(port, "/client");
    expect([answer.status, answer.body]).toEqual([500, { detail: "Internal Server Error" }]);
  });
});

/** A middleware that keeps its header and key on itself, and reads them through `this` in its guard. */
function keyedBy(header: string, key: string): Middleware {
  const pass: Middleware = (request, next) => next(request);
  return Object.assign(pass, {
    header,
    key,
    guardUpgrade(this: { header: string; key: string }, request: { header(name: string): unknown }) {
      if (request.header(this.header) !== this.key)
        throw new HttpError(401, `Send the header ${this.header}`);
      return undefined;
    },
  });
}

describe("a guardUpgrade that reads its middleware through this", () => {
  it("is called as the middleware's method, on the app's middleware and on a group's", async () => {
    const app = createApp({
      middleware: [keyedBy("x-app-key", "a1")],
      routes: [
        path("/group", {
          middleware: [keyedBy("x-group-key", "g1")],
          routes: [path("/client", { websocket: client })],
        }),
      ],
    });
    apps.push(app);
    await app.listen({ port: 0, host: "127.0.0.1" });
    const port = app.address()!.port;
    const answers = [
      await upgradeAnswer(port, "/group/client"),
      await upgradeAnswer(port, "/group/client", { "x-app-key": "a1" }),
      await upgradeAnswer(port, "/group/client", { "x-app-key": "a1", "x-group-key": "g1" }),
    ];
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
      [401, { detail: "Send the header x-app-key" }],
      [401, { detail: "Send the header x-group-key" }],
      [101, null],
    ]);
  });
});

describe("a group's middleware with guardUpgrade", () => {
  it("guards the WebSocket routes under the group once the upgrade is routed, and no other route", async () => {
    const app = createApp({
      routes: [
        path("/open", { websocket: client }),
        path("/keyed", { middleware: [apiKey], routes: [path("/client", { websocket: client })] }),
      ],
    });
    apps.push(app);
    await app.listen({ port: 0, host: "127.0.0.1" });
    const port = app.address()!.port;
    const refused = await upgradeAnswer(port, "/keyed/client");
    expect([refused.status, refused.body]).toEqual([401, { detail: "Send the header X-API-Key" }]);
    expect((await upgradeAnswer(port, "/keyed/client", { "x-api-key": "s3cret" })).status).toBe(101);
    expect((await upgradeAnswer(port, "/open")).status).toBe(101);
    // Routed first: a path under the group that no route serves is a 404, as over HTTP.
    expect((await upgradeAnswer(port, "/keyed/nowhere")).status).toBe(404);
  });
});

describe("the test client's WebSocket under trustedHost()", () => {
  it("sends the Host a test gives, in process and over a port, so that an app that lists its hosts can be tested", async () => {
    const app = createApp({
      middleware: [trustedHost({ hosts: ["chat.example"] })],
      routes: [path("/client", { websocket: client })],
    });
    const inProcess = await testClient(app).websocket(client, {}, { headers: { host: "chat.example" } });
    expect(await inProcess.receive()).toEqual({ origin: "http://chat.example", address: "127.0.0.1" });
    const refused = await testClient(app)
      .websocket(client)
      .catch((error: WebSocketRefused) => [error.status, error.json()]);
    expect(refused).toEqual([400, { detail: "Invalid host header" }]);
    const server = await startServer(app);
    const overPort = await server.websocket(client, {}, { headers: { host: "chat.example:8000" } });
    expect(await overPort.receive()).toEqual({ origin: "http://chat.example:8000", address: "127.0.0.1" });
    await server.close();
  });
});

describe("an upgrade's request.client on Node's upgrade", () => {
  it("believes the proxies PROXIES trusts, as a plain request's does", async () => {
    const { port } = await listening({ settings: { PROXIES: { trusted: ["loopback"] } } });
    const message = await new Promise<string>((resolve, reject) => {
      const socket = createConnection(port, "127.0.0.1");
      let received = Buffer.alloc(0);
      socket.on("error", reject);
      socket.on("data", (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        const end = received.indexOf("\r\n\r\n");
        // The first frame after the 101: unmasked text, length under 126.
        if (end >= 0 && received.length >= end + 6 && received.length >= end + 6 + received[end + 5]!) {
          resolve(received.subarray(end + 6, end + 6 + received[end + 5]!).toString());
          socket.destroy();
        }
      });
      socket.write(
        "GET /client HTTP/1.1\r\nHost: app.internal:8000\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
          "X-Forwarded-For: 203.0.113.7\r\nX-Forwarded-Proto: https\r\nX-Forwarded-Host: chat.example\r\n\r\n",
      );
    });
    expect(JSON.parse(message)).toEqual({ origin: "https://chat.example", address: "203.0.113.7" });
  });
});
