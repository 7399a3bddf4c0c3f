// docs/websockets.md, "Secured before the handshake": an upgrade is an HTTP GET, answered like any
// request until it succeeds. Each refusal here is read off a real connection, byte for byte.
import { cors, createApp, exceptionHandler, HttpError } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { dependency, endpoint, type ParamDeclarations, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { websocket } from "unruffled/websocket";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { bodyOf, openRaw, statusOf } from "../support/raw-http.ts";

const noop = z.object({ type: z.literal("noop") });
const KEY = "dGhlIHNhbXBsZSBub25jZQ==";

class RoomFull extends Error {}

/** What the routes' dependencies saw: each generator's entry, and what reached its `yield`. */
const journal: string[] = [];

const bearer = httpBearer({
  verify: (token) =>
    token === "ann"
      ? { name: "ann", scopes: ["chat:write"] }
      : token === "bob"
        ? { name: "bob", scopes: [] }
        : null,
  scopesOf: (user) => user.scopes,
});
const entered = dependency({
  async *resolve() {
    journal.push("entered");
    try {
      yield 1;
    } catch (error) {
      journal.push(`got at its yield: ${(error as Error).message}`);
      throw error;
    }
  },
});
const full = dependency({
  resolve: () => {
    throw new HttpError(409, "The room is full");
  },
});
const fullOfAnotherKind = dependency({
  resolve: () => {
    throw new RoomFull("The garden is full");
  },
});

const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello") });

const socketOf = (params: ParamDeclarations) =>
  websocket({ params, inbound: noop, outbound: noop, handler: async () => {} });

const app = createApp({
  exceptionHandlers: [
    exceptionHandler(RoomFull, (error) => new JsonResponse({ full: error.message }, { status: 409 })),
  ],
  routes: [
    path("/hello", { endpoint: hello }),
    path("/plain", { websocket: socketOf({}) }),
    path("/writers", { websocket: socketOf({ user: p.Security(bearer, { scopes: ["chat:write"] }) }) }),
    path("/full", { websocket: socketOf({ first: p.Depends(entered), refusing: p.Depends(full) }) }),
    path("/garden", { websocket: socketOf({ refusing: p.Depends(fullOfAnotherKind) }) }),
    path("/listed", {
      websocket: websocket({
        inbound: noop,
        outbound: noop,
        origins: ["https://app.example.com", /^https:\/\/[a-z]+\.pages\.example$/],
        handler: async () => {},
      }),
    }),
    path("/anyone", {
      websocket: websocket({ inbound: noop, outbound: noop, origins: "*", handler: async () => {} }),
    }),
    path("/asked", {
      websocket: websocket({
        inbound: noop,
        outbound: noop,
        origins: async (origin) => origin.endsWith(".trusted.example"),
        handler: async () => {},
      }),
    }),
  ],
});
let port: number;
beforeAll(async () => {
  await app.listen({ port: 0 });
  port = app.address()!.port;
});
afterAll(() => app.close());

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Whether `raw` holds a whole answer: a 101's head, or a head and the body its length announces. */
function complete(raw: string): boolean {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return false;
  if (raw.startsWith("HTTP/1.1 101 ")) return true;
  const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, end));
  return length !== null && raw.length - end - 4 >= Number(length[1]);
}

/** Sends one upgrade request by hand and reads the server's answer. */
async function upgrade(
  target: string,
  { method = "GET", headers = {} }: { method?: string; headers?: Record<string, string | undefined> } = {},
): Promise<Answer> {
  const all: Record<string, string | undefined> = {
    host: `127.0.0.1:${port}`,
    upgrade: "websocket",
    connection: "Upgrade",
    "sec-websocket-key": KEY,
    "sec-websocket-version": "13",
    ...headers,
  };
  const lines = Object.entries(all)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const exchange = await openRaw(port);
  await exchange.write(`${method} ${target} HTTP/1.1\r\n${lines}\r\n`);
  // A 101 is all there is to read of a handshake that succeeded; any other answer has a length.
  await expect.poll(() => complete(exchange.received()), { timeout: 15_000 }).toBe(true);
  exchange.socket.destroy();
  const raw = exchange.received();
  const head = raw.slice(0, raw.indexOf("\r\n\r\n")).split("\r\n").slice(1);
  const text = bodyOf(raw);
  return {
    status: statusOf(raw),
    headers: Object.fromEntries(
      head.map((line) => [
        line.slice(0, line.indexOf(":")).toLowerCase(),
        line.slice(line.indexOf(":") + 1).trim(),
      ]),
    ),
    // After a 101 come WebSocket frames, not a body.
    body: text === "" || statusOf(raw) === 101 ? null : raw.includes("/json\r\n") ? JSON.parse(text) : text,
  };
}

describe("an upgrade that fails before the handshake", () => {
  it("is answered 405 with Allow: GET when it is not a GET", async () => {
    const answer = await upgrade("/plain", { method: "POST", headers: { "content-length": "0" } });
    expect([answer.status, answer.headers.allow, answer.body]).toEqual([
      405,
      "GET",
      { detail: "Method Not Allowed; allowed: GET" },
    ]);
  });

  it("is answered 400 without a valid Sec-WebSocket-Key", async () => {
    for (const key of [undefined, "short"]) {
      const answer = await upgrade("/plain", { headers: { "sec-websocket-key": key } });
      expect([answer.status, answer.body]).toEqual([
        400,
        { detail: "Missing or invalid Sec-WebSocket-Key header" },
      ]);
    }
  });

  it("is answered 426 naming version 13 for a version the server does not speak", async () => {
    const answer = await upgrade("/plain", { headers: { "sec-websocket-version": "12" } });
    expect([answer.status, answer.headers["sec-websocket-version"], answer.body]).toEqual([
      426,
      "13",
      { detail: "Unsupported WebSocket version; use 13" },
    ]);
  });

  it("is answered 403 naming the scope a security scheme requires and the user lacks", async () => {
    const answer = await upgrade("/writers", { headers: { authorization: "Bearer bob" } });
    expect([answer.status, answer.headers["www-authenticate"], answer.body]).toEqual([
      403,
      undefined,
      { detail: "Not enough permissions: the scope chat:write is required" },
    ]);
    expect((await upgrade("/writers", { headers: { authorization: "Bearer ann" } })).status).toBe(101);
  });

  it("is answered with the status of the HttpError a dependency raised, and the error reaches an entered generator's yield", async () => {
    journal.length = 0;
    const answer = await upgrade("/full");
    expect([answer.status, answer.body]).toEqual([409, { detail: "The room is full" }]);
    expect(journal).toEqual(["entered", "got at its yield: The room is full"]);
  });

  it("is answered by the app's exception handler for the error a dependency raised", async () => {
    const answer = await upgrade("/garden");
    expect([answer.status, answer.body]).toEqual([409, { full: "The garden is full" }]);
  });
});

describe("a GET whose Connection does not name upgrade", () => {
  it("is no upgrade, whatever its Upgrade says: a plain GET of the path, 404 at a WebSocket route's", async () => {
    const answer = await upgrade("/plain", { headers: { connection: "keep-alive" } });
    expect([answer.status, answer.body]).toEqual([404, { detail: "Not Found: /plain" }]);
  });
});

describe("the Origin an upgrade may come from", () => {
  const statusFrom = async (target: string, origin: string | undefined) =>
    (await upgrade(target, { headers: { origin } })).status;

  it("is by default the request's own origin, or none (not a browser)", async () => {
    expect(await statusFrom("/plain", `http://127.0.0.1:${port}`)).toBe(101);
    expect(await statusFrom("/plain", undefined)).toBe(101);
    const other = await upgrade("/plain", { headers: { origin: `http://127.0.0.1:${port + 1}` } });
    expect([other.status, other.body]).toEqual([
      403,
      { detail: `The origin http://127.0.0.1:${port + 1} may not open this WebSocket` },
    ]);
    expect(await statusFrom("/plain", `http://localhost:${port}`)).toBe(403);
  });

  it("is one the route lists, exactly or by a pattern", async () => {
    expect(await statusFrom("/listed", "https://app.example.com")).toBe(101);
    expect(await statusFrom("/listed", "https://docs.pages.example")).toBe(101);
    expect(await statusFrom("/listed", "https://evil.example")).toBe(403);
    expect(await statusFrom("/listed", "https://app.example.com.evil.example")).toBe(403);
  });

  it('is any under origins: "*", and what the route\'s function admits', async () => {
    expect(await statusFrom("/anyone", "https://evil.example")).toBe(101);
    expect(await statusFrom("/asked", "https://app.trusted.example")).toBe(101);
    expect(await statusFrom("/asked", "https://app.untrusted.example")).toBe(403);
  });
});

describe("an upgrade to another protocol", () => {
  // curl --http2 on an http:// URL offers h2c this way; a server may answer without switching.
  const h2c = {
    connection: "Upgrade, HTTP2-Settings",
    upgrade: "h2c",
    "http2-settings": "AAMAAABkAARAAAAAAAIAAAAA",
    "sec-websocket-key": undefined,
    "sec-websocket-version": undefined,
  };

  it("of an HTTP route is answered as the request, as in an app without WebSocket routes", async () => {
    const answer = await upgrade("/hello", { headers: h2c });
    expect([answer.status, answer.headers["content-type"], answer.body]).toEqual([
      200,
      "text/plain; charset=utf-8",
      "Hello",
    ]);
  });

  it("of a WebSocket route is answered 400; a WebSocket upgrade of an HTTP route stays a 404", async () => {
    const refused = await upgrade("/plain", { headers: h2c });
    expect([refused.status, refused.body]).toEqual([
      400,
      { detail: "A WebSocket route is opened with Upgrade: websocket" },
    ]);
    const elsewhere = await upgrade("/hello");
    expect([elsewhere.status, elsewhere.body]).toEqual([404, { detail: "Not Found: /hello" }]);
  });

  it("is decided by the path of a target in absolute form too, as the router reads it", async () => {
    const refused = await upgrade(`http://127.0.0.1:${port}/plain?x=1`, { headers: h2c });
    expect([refused.status, refused.body]).toEqual([
      400,
      { detail: "A WebSocket route is opened with Upgrade: websocket" },
    ]);
  });
});

describe("an upgrade in an app with cors() middleware (docs/websockets.md, Origins)", () => {
  // cors() answers preflights, which WebSockets do not make: it admits no origin to a socket.
  const corsApp = createApp({
    middleware: [cors({ origins: ["https://app.example.com"] })],
    routes: [
      path("/hello", { endpoint: hello }),
      path("/plain", { websocket: socketOf({}) }),
      path("/listed", {
        websocket: websocket({
          inbound: noop,
          outbound: noop,
          origins: ["https://pages.example.com"],
          handler: async () => {},
        }),
      }),
    ],
  });
  let corsPort: number;
  beforeAll(async () => {
    await corsApp.listen({ port: 0 });
    corsPort = corsApp.address()!.port;
  });
  afterAll(() => corsApp.close());

  const upgradeFrom = async (target: string, origin: string) => {
    const exchange = await openRaw(corsPort);
    await exchange.write(
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${corsPort}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\nOrigin: ${origin}\r\n\r\n`,
    );
    await expect.poll(() => complete(exchange.received()), { timeout: 15_000 }).toBe(true);
    exchange.socket.destroy();
    const raw = exchange.received();
    return [statusOf(raw), statusOf(raw) === 101 ? null : JSON.parse(bodyOf(raw))];
  };

  it("does not admit an origin that the app's cors() lists to a route that does not list it", async () => {
    expect(await upgradeFrom("/plain", "https://app.example.com")).toEqual([
      403,
      { detail: "The origin https://app.example.com may not open this WebSocket" },
    ]);
  });

  it("admits the origins the route lists, whatever cors() lists", async () => {
    expect(await upgradeFrom("/listed", "https://pages.example.com")).toEqual([101, null]);
    expect(await upgradeFrom("/listed", "https://app.example.com")).toEqual([
      403,
      { detail: "The origin https://app.example.com may not open this WebSocket" },
    ]);
  });
});
