// A WebSocket route's behaviours, the same on Node (Node's `upgrade`, through ws) and on Bun
// (Bun.serve's own WebSockets): the fixture app (websocket-fixture-app.ts) is served by
// `unruffled serve` on each, and a ws client speaks to it from this process.
import { connect as connectNet } from "node:net";
import { fileURLToPath } from "node:url";
import { endProcessGroups } from "process-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startRedis } from "../pubsub/support/redis-server.ts";
import { bodyOf, openRaw, statusOf } from "../support/raw-http.ts";
import { frame, rawWebSocket } from "../websocket/raw-websocket.ts";
import { type RuntimeName, type ServedApp, serveOn } from "./runtime-process.ts";

const fixture = fileURLToPath(new URL("./websocket-fixture-app.ts", import.meta.url));
const ann = { authorization: "Bearer user-ann" };

afterAll(endProcessGroups);

/** An open client socket: the messages it got (parsed), and how it closed. */
interface Client {
  socket: WebSocket;
  messages: unknown[];
  /** Resolves once `count` messages arrived. */
  received(count: number): Promise<unknown[]>;
  closed: Promise<{ code: number; reason: string }>;
}

/** The upgrade's HTTP answer, when the server refused to open the socket. */
interface Refusal {
  status: number;
  contentType: string | undefined;
  body: unknown;
}

function connect(
  served: ServedApp,
  path: string,
  options: { headers?: Record<string, string>; autoPong?: boolean } = {},
): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${served.origin.replace("http", "ws")}${path}`, {
      headers: options.headers,
      autoPong: options.autoPong ?? true,
    });
    const messages: unknown[] = [];
    const waiters: (() => void)[] = [];
    const closed = new Promise<{ code: number; reason: string }>((settle) =>
      socket.once("close", (code, reason) => {
        settle({ code, reason: String(reason) });
        for (const waiter of waiters) waiter();
      }),
    );
    socket.on("message", (data) => {
      messages.push(JSON.parse(String(data)));
      for (const waiter of waiters) waiter();
    });
    const received = (count: number) =>
      new Promise<unknown[]>((settle, fail) => {
        const check = () => {
          if (messages.length >= count) settle(messages.slice(0, count));
          else if (socket.readyState === WebSocket.CLOSED)
            fail(new Error(`closed after ${messages.length} messages`));
          else return false;
          return true;
        };
        if (!check()) waiters.push(() => void check());
      });
    socket.once("open", () => resolve({ socket, messages, received, closed }));
    socket.once("unexpected-response", (_request, response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => {
        text += chunk;
      });
      response.on("end", () =>
        reject({
          status: response.statusCode ?? 0,
          contentType: response.headers["content-type"],
          body: text === "" ? null : JSON.parse(text),
        } satisfies Refusal),
      );
    });
    socket.once("error", reject);
  });
}

const refusalOf = (opening: Promise<Client>): Promise<Refusal> =>
  opening.then(
    () => {
      throw new Error("the socket opened");
    },
    (refusal: Refusal) => refusal,
  );

const TEXT = 0x1;
const CONTINUATION = 0x0;
const PING = 0x9;

/** Sends hand-made frames to /small and resolves to the code of the server's close frame. */
async function closeCodeAfter(served: ServedApp, frames: Buffer[]): Promise<number | undefined> {
  const raw = await rawWebSocket(served.port, "/small");
  expect(raw.head.split("\r\n")[0]).toBe("HTTP/1.1 101 Switching Protocols");
  for (const bytes of frames) if (!raw.socket.destroyed) raw.socket.write(bytes);
  await raw.until(() => raw.closeCode() !== undefined);
  raw.socket.destroy();
  return raw.closeCode();
}

// Conditions the server reaches on its own time: polled, never timed.
const POLL = { timeout: 15_000, interval: 50 };

async function journal(served: ServedApp): Promise<string[]> {
  const text = await (await fetch(`${served.origin}/journal`)).text();
  return text === "" ? [] : text.split("\n");
}

describe.each(["node", "bun"] as const satisfies readonly RuntimeName[])(
  "a WebSocket route on %s",
  (runtime) => {
    let served: ServedApp;
    beforeAll(async () => {
      served = await serveOn(runtime, fixture);
      // Bun serves the sockets itself (before, the app went to Node's http through Bun's compatibility).
      expect(served.output.combined).not.toContain("node:http");
    }, 60_000);
    afterAll(async () => {
      served.child.kill("SIGTERM");
      await served.exited;
    });

    it("opens after its parameters and dependencies resolved, and sends only what its model declares", async () => {
      const client = await connect(served, "/rooms/lobby?nick=annie", { headers: ann });
      expect(await client.received(1)).toEqual([
        { type: "joined", room: "lobby", user: "ann", nick: "annie", address: "127.0.0.1" },
      ]);
      client.socket.send(JSON.stringify({ type: "say", text: "hi" }));
      expect((await client.received(2))[1]).toEqual({ type: "said", nick: "annie", text: "hi" });
      client.socket.close(1000);
      expect(await client.closed).toEqual({ code: 1000, reason: "" });
    });

    it("is refused with the app's HTTP answer, and no handler runs, when a parameter or a scheme fails", async () => {
      const before = await journal(served);
      expect(await refusalOf(connect(served, "/rooms/lobby?nick=annie"))).toEqual({
        status: 401,
        contentType: "application/problem+json",
        body: expect.objectContaining({
          status: 401,
          detail: "Not authenticated: send the header Authorization: Bearer <token>",
        }),
      });
      const invalid = await refusalOf(connect(served, "/rooms/lobby?nick=a", { headers: ann }));
      expect(invalid.status).toBe(422);
      expect(invalid.contentType).toBe("application/problem+json");
      expect(
        await refusalOf(
          connect(served, "/rooms/private?nick=bob", { headers: { authorization: "Bearer user-bob" } }),
        ),
      ).toMatchObject({ status: 403, body: { detail: "Only ann may join private" } });
      expect(await refusalOf(connect(served, "/nowhere"))).toMatchObject({ status: 404 });
      expect(
        await refusalOf(
          connect(served, "/rooms/lobby?nick=annie", { headers: { ...ann, origin: "https://evil.example" } }),
        ),
      ).toMatchObject({ status: 403 });
      // The refused private room entered its dependency (which refused); none of the others did.
      expect((await journal(served)).slice(before.length)).toEqual([]);
    });

    it("runs its dependency's clean-up once the client closed and the handler returned", async () => {
      const client = await connect(served, "/rooms/cleanup-close?nick=annie", { headers: ann });
      await client.received(1);
      client.socket.close(1000);
      await client.closed;
      await expect
        .poll(() => journal(served))
        .toEqual(
          expect.arrayContaining([
            "enter cleanup-close",
            "handler returned cleanup-close",
            "leave cleanup-close",
          ]),
        );
    });

    it("closes with 1000 when the handler returns, and 1011 when it throws (the clean-up gets the error)", async () => {
      const leaving = await connect(served, "/rooms/returns?nick=annie", { headers: ann });
      leaving.socket.send(JSON.stringify({ type: "leave" }));
      expect(await leaving.closed).toEqual({ code: 1000, reason: "" });
      const failing = await connect(served, "/rooms/throws?nick=annie", { headers: ann });
      failing.socket.send(JSON.stringify({ type: "fail" }));
      expect(await failing.closed).toEqual({ code: 1011, reason: "Internal Server Error" });
      await expect
        .poll(() => journal(served))
        .toEqual(expect.arrayContaining(["failed throws: The handler failed on purpose", "leave throws"]));
    });

    it("answers a message its model refuses with the issues, then closes with 1007", async () => {
      const client = await connect(served, "/rooms/invalid?nick=annie", { headers: ann });
      await client.received(1);
      client.socket.send(JSON.stringify({ type: "say", text: "" }));
      const [, issues] = await client.received(2);
      expect(issues).toEqual({
        detail: [expect.objectContaining({ loc: ["message", "text"], type: "too_small" })],
      });
      expect(await client.closed).toEqual({ code: 1007, reason: "The message does not match its model" });
    });

    it("skips a refused message under onInvalid: skip, and keeps the socket open", async () => {
      const client = await connect(served, "/small");
      client.socket.send("not json");
      client.socket.send(JSON.stringify({ text: "after" }));
      const [issues, echo] = await client.received(2);
      expect(issues).toEqual({
        detail: [expect.objectContaining({ loc: ["message"], type: "json_invalid" })],
      });
      expect(echo).toEqual({ echo: "after" });
      client.socket.close(1000);
    });

    it("closes with 1003 on a binary message", async () => {
      const client = await connect(served, "/small");
      client.socket.send(Buffer.from([1, 2, 3]));
      expect(await client.closed).toEqual({
        code: 1003,
        reason: "Binary messages are not accepted; send JSON text",
      });
    });

    it("closes with 1009 on a message larger than the route's maxPayload, though another route takes more", async () => {
      const client = await connect(served, "/small");
      client.socket.send(JSON.stringify({ text: "z".repeat(100) }));
      expect((await client.closed).code).toBe(1009);
    });

    it.each([
      [
        // Past the largest maxPayload of the app's routes (1 MiB): where Bun stops reading; ws
        // stops at the route's own 64 bytes.
        "a flood of fragments past every route's maxPayload",
        1009,
        () => [
          frame(TEXT, Buffer.from("{"), { fin: false }),
          ...Array.from({ length: 1100 }, () =>
            frame(CONTINUATION, Buffer.alloc(1024, 0x20), { fin: false }),
          ),
        ],
      ],
      ["invalid UTF-8 in a text message", 1007, () => [frame(TEXT, Buffer.from([0x7b, 0xc3, 0x28, 0x7d]))]],
      ["a control frame over 125 bytes", 1002, () => [frame(PING, Buffer.alloc(200))]],
      [
        "an unmasked client frame",
        1002,
        () => [frame(TEXT, Buffer.from('{"text":"hi"}'), { masked: false })],
      ],
    ] as const)("closes on %s with %i, and serves the next client", async (_case, code, frames) => {
      expect(await closeCodeAfter(served, frames())).toBe(code);
      const client = await connect(served, "/small");
      client.socket.send(JSON.stringify({ text: "still here" }));
      expect(await client.received(1)).toEqual([{ echo: "still here" }]);
      client.socket.close(1000);
    });

    it("delivers a burst far past the high-water mark in order, waiting on the peer", async () => {
      const client = await connect(served, "/rooms/burst?nick=annie", { headers: ann });
      await client.received(1);
      client.socket.send(JSON.stringify({ type: "burst", count: 400, size: 1000 }));
      const messages = (await client.received(401)).slice(1) as { index: number }[];
      expect(messages.map((message) => message.index)).toEqual([...Array(400).keys()]);
      client.socket.close(1000);
    });

    it("answers every message of a flood in order: the socket stops reading while its queue is full", async () => {
      const client = await connect(served, "/slow-reader");
      for (let index = 0; index < 300; index++) client.socket.send(JSON.stringify({ text: `m${index}` }));
      const answers = (await client.received(300)) as { echo: string }[];
      expect(answers.map((answer) => answer.echo)).toEqual(
        Array.from({ length: 300 }, (_, index) => `m${index}`),
      );
      client.socket.close(1000);
    });

    it("resolves a send waiting on a peer that stopped reading to false once the peer leaves", async () => {
      const client = await connect(served, "/waiting");
      client.socket.pause();
      await expect.poll(() => journal(served), POLL).toContain("waiting send waits for the peer");
      client.socket.terminate();
      await expect.poll(() => journal(served), POLL).toContain("waiting send resolved false after some");
    });

    // The route sends as fast as the connection takes it when the peer resets it: the writes that
    // fail must end the loop, which no I/O interrupts (it only awaits sends that resolve at once).
    it("ends a route sending as fast as it can when the peer resets the connection, and keeps serving", async () => {
      const before = (await journal(served)).filter((line) =>
        line.startsWith("waiting send resolved false"),
      ).length;
      const client = await connect(served, "/waiting");
      client.socket.pause();
      client.socket.terminate();
      await expect
        .poll(
          async () =>
            (await journal(served)).filter((line) => line.startsWith("waiting send resolved false")).length,
          POLL,
        )
        .toBe(before + 1);
    });

    it("closes a peer that reads too slowly with 1013 under onBackpressure: close", async () => {
      const client = await connect(served, "/impatient");
      client.socket.pause();
      client.socket.send(JSON.stringify({ count: 50_000 }));
      // Paused, the client reads nothing: neither the messages nor the close frame. It resumes once
      // the server stopped sending, and finds the close after what was buffered.
      await expect.poll(() => journal(served), POLL).toContain("impatient closed its peer");
      client.socket.resume();
      expect(await client.closed).toEqual({ code: 1013, reason: "The client reads too slowly" });
      expect(client.messages.length).toBeLessThan(50_000);
    });

    it("cuts a peer that answers no ping", async () => {
      const answering = await connect(served, "/beat");
      const silent = await connect(served, "/beat", { autoPong: false });
      expect((await silent.closed).code).toBe(1006);
      answering.socket.send(JSON.stringify({ text: "still here" }));
      expect(await answering.received(1)).toEqual([{ text: "still here" }]);
      answering.socket.close(1000);
    });

    it("forwards what the app publishes on a topic the socket follows", async () => {
      const client = await connect(served, "/news");
      await client.received(1);
      const published = await fetch(`${served.origin}/news?headline=bun`, { method: "POST" });
      expect(await published.text()).toBe("published");
      expect(await client.received(2)).toEqual([{ headline: "subscribed" }, { headline: "bun" }]);
      client.socket.close(1000);
    });

    it("keeps the upgrade request's signal unaborted, while the socket is open and once it closed", async () => {
      const client = await connect(served, "/signal");
      expect(await client.received(1)).toEqual([{ aborted: false }]);
      client.socket.close(1000);
      await client.closed;
      await expect.poll(() => journal(served)).toContain("signal after close: false");
    });

    it("runs its dependency's clean-up once when the client vanishes without a closing handshake", async () => {
      const client = await connect(served, "/rooms/vanish?nick=annie", { headers: ann });
      await client.received(1);
      client.socket.terminate();
      await expect.poll(() => journal(served)).toContain("leave vanish");
      expect((await journal(served)).filter((entry) => entry.endsWith(" vanish"))).toEqual([
        "enter vanish",
        "handler returned vanish",
        "leave vanish",
      ]);
    });

    it("runs no handler, and the clean-up once, for a client that left while its dependencies resolved", async () => {
      const raw = connectNet(served.port, "127.0.0.1");
      raw.on("error", () => {});
      raw.write(
        "GET /slow-open HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
          "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
      );
      await expect.poll(() => journal(served)).toContain("slow enter");
      raw.destroy();
      await expect.poll(() => journal(served)).toContain("slow leave");
      expect((await journal(served)).filter((entry) => entry.startsWith("slow "))).toEqual([
        "slow enter",
        "slow leave",
      ]);
    });

    it("leaves no socket and no descriptor behind once 500 clients with a heartbeat vanished", async () => {
      const stats = async () =>
        (await (await fetch(`${served.origin}/stats`)).json()) as { sockets: number; descriptors: number };
      await expect.poll(async () => (await stats()).sockets).toBe(0);
      const before = await stats();
      const clients: Client[] = [];
      for (let batch = 0; batch < 5; batch++) {
        clients.push(
          ...(await Promise.all(Array.from({ length: 100 }, () => connect(served, "/beat-many")))),
        );
      }
      // A client opens on the 101; the server counts the socket a moment later, later on a busy machine.
      await expect.poll(async () => (await stats()).sockets, { timeout: 30_000 }).toBe(500);
      for (const client of clients) client.socket.terminate();
      // The server notices each client gone on its own side: wait for that, not for a time.
      await expect.poll(async () => (await stats()).sockets, { timeout: 30_000 }).toBe(0);
      await expect
        .poll(async () => (await stats()).descriptors, { timeout: 30_000 })
        .toBeLessThanOrEqual(before.descriptors);
    }, 60_000);

    it("names the request's id in the handshake's 101, a client's own id kept", async () => {
      const given = await rawWebSocket(served.port, "/small", { headers: { "x-request-id": "client-7" } });
      const made = await rawWebSocket(served.port, "/small");
      expect(given.head).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
      expect(given.head).toMatch(/\r\nx-request-id: client-7(\r\n|$)/i);
      expect(made.head).toMatch(/\r\nx-request-id: [\w-]+(\r\n|$)/i);
      given.socket.destroy();
      made.socket.destroy();
    });

    it("refuses a handshake that is not one with the HTTP answer the docs list, and answers another protocol's offer as a request", async () => {
      const answer = async (head: string) => {
        const exchange = await openRaw(served.port);
        await exchange.write(`${head}Host: 127.0.0.1:${served.port}\r\n\r\n`);
        // Every answer here has a length: read until the body it announces is there.
        const whole = () => {
          const raw = exchange.received();
          const end = raw.indexOf("\r\n\r\n");
          const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, Math.max(end, 0)));
          return end >= 0 && length !== null && raw.length - end - 4 >= Number(length[1]);
        };
        await expect.poll(whole, { timeout: 15_000 }).toBe(true);
        exchange.socket.destroy();
        const raw = exchange.received();
        return [statusOf(raw), bodyOf(raw)];
      };
      const handshake = (method: string, key: string, version: string) =>
        `${method} /small HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: ${version}\r\n`;
      const key = "dGhlIHNhbXBsZSBub25jZQ==";
      expect(await answer(handshake("GET", "short", "13"))).toEqual([
        400,
        expect.stringContaining("Missing or invalid Sec-WebSocket-Key header"),
      ]);
      expect(await answer(handshake("GET", key, "12"))).toEqual([
        426,
        expect.stringContaining("Unsupported WebSocket version; use 13"),
      ]);
      expect((await answer(`${handshake("POST", key, "13")}Content-Length: 0\r\n`))[0]).toBe(405);
      // Without upgrade in Connection it is no upgrade: a plain GET of the path, 404.
      expect(
        await answer(handshake("GET", key, "13").replace("Connection: Upgrade", "Connection: keep-alive")),
      ).toEqual([404, expect.stringContaining("Not Found: /small")]);
      // curl --http2 offers h2c this way: the HTTP route answers as it would without the offer.
      const plain = await fetch(`${served.origin}/journal`);
      expect(
        await answer(
          "GET /journal HTTP/1.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n",
        ),
      ).toEqual([plain.status, expect.any(String)]);
    });

    it("refuses an upgrade with two Host lines, an invalid Host, or none on HTTP/1.1 with 400 (Bun's own for none)", async () => {
      const upgrade = async (hostLines: string) => {
        const exchange = await openRaw(served.port);
        await exchange.write(
          `GET /small HTTP/1.1\r\n${hostLines}Upgrade: websocket\r\nConnection: Upgrade\r\n` +
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nX-Request-Id: req-host\r\n\r\n",
        );
        // Read until the body its length announces is there (Bun keeps the connection), or the end.
        let ended = false;
        exchange.socket.once("close", () => {
          ended = true;
        });
        const whole = () => {
          const raw = exchange.received();
          const end = raw.indexOf("\r\n\r\n");
          const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, Math.max(end, 0)));
          return (
            ended ||
            (end >= 0 &&
              (statusOf(raw) === 101 || (length !== null && raw.length - end - 4 >= Number(length[1]))))
          );
        };
        await expect.poll(whole, { timeout: 15_000 }).toBe(true);
        exchange.socket.destroy();
        const all = exchange.received();
        return [statusOf(all), bodyOf(all) === "" ? "" : JSON.parse(bodyOf(all))];
      };
      const problem = (detail: string) => ({
        type: "about:blank",
        title: "Bad Request",
        status: 400,
        detail,
        instance: "req-host",
      });
      expect(await upgrade("Host: 127.0.0.1\r\nHost: evil.example\r\n")).toEqual([
        400,
        problem('Invalid Host header: "127.0.0.1, evil.example"'),
      ]);
      expect(await upgrade("Host: u@evil.example\r\n")).toEqual([
        400,
        problem('Invalid Host header: "u@evil.example"'),
      ]);
      expect(await upgrade("")).toEqual([
        400,
        runtime === "bun" ? "" : problem("Missing Host header: an HTTP/1.1 request must name its host"),
      ]);
    });

    it("yields the messages that arrived before the client closed, then ends the handler's loop", async () => {
      const client = await connect(served, "/last-words");
      expect(await client.received(1)).toEqual([{ type: "ready" }]);
      for (const text of ["a", "b", "c"]) client.socket.send(JSON.stringify({ text }));
      client.socket.close(1000);
      await client.closed;
      await expect.poll(() => journal(served)).toContain("last-words loop ended");
      expect((await journal(served)).filter((entry) => entry.startsWith("last-words"))).toEqual([
        "last-words read a",
        "last-words read b",
        "last-words read c",
        "last-words loop ended",
      ]);
    });

    it("agrees to the first subprotocol a client offers, as ws chooses", async () => {
      const socket = new WebSocket(`${served.origin.replace("http", "ws")}/small`, ["chat.v2", "chat.v1"]);
      await new Promise((resolve, reject) => {
        socket.once("open", resolve);
        socket.once("error", reject);
      });
      expect(socket.protocol).toBe("chat.v2");
      socket.close(1000);
    });

    it("sends an upgrade to the socket and a plain GET to the page at the same path", async () => {
      expect(await (await fetch(`${served.origin}/shared`)).text()).toBe("the page");
      const client = await connect(served, "/shared");
      expect(await client.received(1)).toEqual([{ text: "the socket" }]);
      expect((await client.closed).code).toBe(1000);
    });
  },
);

it.each(["node", "bun"] as const)(
  "on %s, a graceful stop sends 1001 to open sockets and exits 0",
  async (runtime) => {
    const served = await serveOn(runtime, fixture);
    const client = await connect(served, "/rooms/draining?nick=annie", { headers: ann });
    await client.received(1);
    served.child.kill("SIGTERM");
    expect(await client.closed).toEqual({ code: 1001, reason: "The server is shutting down" });
    expect(await served.exited).toBe(0);
  },
);

it.each(["node", "bun"] as const)(
  "on %s, a topic reaches a socket of another instance through Redis",
  async (runtime) => {
    const redis = await startRedis();
    try {
      const [first, second] = await Promise.all([
        serveOn(runtime, fixture, { REDIS_URL: redis.url }),
        serveOn(runtime, fixture, { REDIS_URL: redis.url }),
      ]);
      const client = await connect(first, "/news");
      expect(await client.received(1)).toEqual([{ headline: "subscribed" }]);
      expect(await (await fetch(`${second.origin}/news?headline=elsewhere`, { method: "POST" })).text()).toBe(
        "published",
      );
      expect((await client.received(2))[1]).toEqual({ headline: "elsewhere" });
      client.socket.close(1000);
      for (const served of [first, second]) served.child.kill("SIGTERM");
      expect(await Promise.all([first.exited, second.exited])).toEqual([0, 0]);
    } finally {
      await redis.stop();
    }
  },
);
