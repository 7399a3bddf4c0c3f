import { createApp, ForbiddenError, type Middleware } from "unruffled";
import { dependency, p, path } from "unruffled/route";
import { startServer, testClient, WebSocketClosedError } from "unruffled/testing";
import { websocket } from "unruffled/websocket";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { chatApp } from "./chat-app.ts";
import { rawWebSocket } from "./raw-websocket.ts";

const auth = { headers: { authorization: "Bearer user-ann" } };
const quiet = { error() {} };

describe("the clean-ups of a WebSocket route's generator dependencies", () => {
  const open = async () => {
    const setup = chatApp({ logger: quiet });
    const server = await startServer(setup.app);
    const socket = await server.websocket(setup.chat, { room: "lobby", nick: "ann" }, auth);
    await socket.receive();
    expect(setup.events.cleanedUp).toBe(0);
    return { ...setup, server, socket };
  };

  it("run exactly once when the client closes", async () => {
    const { events, server, socket } = await open();
    await socket.close();
    await expect.poll(() => events.cleanedUp).toBe(1);
    await server.close();
    expect(events.cleanedUp).toBe(1);
  });

  it("run exactly once when the client vanishes without a closing handshake", async () => {
    const { events, server, socket } = await open();
    socket.terminate();
    await expect.poll(() => events.cleanedUp).toBe(1);
    await server.close();
    expect(events.cleanedUp).toBe(1);
  });

  it("run exactly once when the handler returns", async () => {
    const { events, server, socket } = await open();
    await socket.send({ type: "leave" });
    expect(await socket.closed).toEqual({ code: 1000, reason: "" });
    await expect.poll(() => events.cleanedUp).toBe(1);
    await server.close();
    expect(events.cleanedUp).toBe(1);
  });

  it("run exactly once, with the handler's error thrown in at their yield, when the handler throws", async () => {
    const { events, server, socket } = await open();
    await socket.send({ type: "fail" });
    expect((await socket.closed).code).toBe(1011);
    await expect.poll(() => events.cleanedUp).toBe(1);
    expect(events.cleanUpErrors).toEqual([new Error("The handler failed on purpose")]);
    await server.close();
    expect(events.cleanedUp).toBe(1);
  });

  it("run exactly once when the app closes", async () => {
    const { events, server, socket } = await open();
    await server.close();
    expect(await socket.closed).toEqual({ code: 1001, reason: "The server is shutting down" });
    expect(events.cleanedUp).toBe(1);
  });

  it("run exactly once when the upgrade is refused after they were entered", async () => {
    const setup = chatApp({ logger: quiet });
    const client = testClient(setup.app);
    // A 403 from a dependency that resolves after the generator was entered.
    const refused = await client
      .websocket(
        setup.chat,
        { room: "private", nick: "bob" },
        { headers: { authorization: "Bearer user-bob" } },
      )
      .catch((error) => error);
    expect(refused.status).toBe(403);
    await setup.app.settled();
    expect(setup.events.entered).toBe(setup.events.cleanedUp);
  });
});

describe("app.close() with open WebSockets", () => {
  it("sends 1001 to every socket and resolves once they closed", async () => {
    const { app, chat } = chatApp();
    const server = await startServer(app);
    const sockets = await Promise.all(
      ["a1", "b2", "c3"].map((nick) => server.websocket(chat, { room: "lobby", nick }, auth)),
    );
    await server.close();
    for (const socket of sockets) {
      expect(await socket.closed).toEqual({ code: 1001, reason: "The server is shutting down" });
    }
  });

  it("cuts a peer that never answers the closing handshake at its timeout, and resolves", async () => {
    const { app } = chatApp();
    await app.listen({ port: 0 });
    const raw = await rawWebSocket(app.address()!.port, "/chat/lobby?nick=ann", {
      headers: auth.headers,
      read: false,
    });
    expect(raw.head.split("\r\n")[0]).toBe("HTTP/1.1 101 Switching Protocols");
    await app.close({ timeout: 300 });
    // The client reads again: it finds the close frame, then the end of the connection.
    raw.socket.resume();
    await raw.ended;
    expect(raw.closeCode()).toBe(1001);
  });

  it("refuses an upgrade that arrives while it closes with 503", async () => {
    const { app, chat } = chatApp();
    const client = testClient(app);
    const first = await client.websocket(chat, { room: "lobby", nick: "ann" }, auth);
    const closing = app.close({ timeout: 2_000 });
    const refused = await client
      .websocket(chat, { room: "lobby", nick: "bob" }, auth)
      .catch((error) => error);
    expect(refused.status).toBe(503);
    await closing;
    expect((await first.closed).code).toBe(1001);
  });
});

describe("the heartbeat", () => {
  it("cuts a peer that does not answer pings", async () => {
    let cleanedUp = 0;
    const session = dependency({
      *resolve() {
        try {
          yield 1;
        } finally {
          cleanedUp++;
        }
      },
    });
    const quietRoute = websocket({
      params: { session: p.Depends(session) },
      inbound: z.object({ type: z.literal("noop") }),
      outbound: z.object({ type: z.literal("noop") }),
      pingInterval: 50,
      async handler(socket) {
        for await (const _ of socket);
      },
    });
    const app = createApp({ routes: [path("/quiet", { websocket: quietRoute })] });
    await app.listen({ port: 0 });
    // Reads, but never answers a ping with a pong: a peer whose application is gone.
    const raw = await rawWebSocket(app.address()!.port, "/quiet");
    await raw.ended;
    await expect.poll(() => cleanedUp).toBe(1);
    await app.close();
  });

  it("is off under pingInterval: 0: a peer that answers no ping is kept, and pinged never", async () => {
    const route = (pingInterval: number) =>
      websocket({
        inbound: z.object({ type: z.literal("noop") }),
        outbound: z.object({ type: z.literal("noop") }),
        pingInterval,
        async handler(socket) {
          for await (const _ of socket);
        },
      });
    const app = createApp({
      routes: [path("/unpinged", { websocket: route(0) }), path("/pinged", { websocket: route(20) })],
    });
    await app.listen({ port: 0 });
    const port = app.address()!.port;
    // Neither client answers a ping; the pinged one is cut after its third interval.
    const unpinged = await rawWebSocket(port, "/unpinged");
    const pinged = await rawWebSocket(port, "/pinged");
    await pinged.ended;
    expect(unpinged.bytes()).toEqual(Buffer.alloc(0));
    expect(unpinged.socket.destroyed).toBe(false);
    unpinged.socket.destroy();
    await app.close();
  });

  it("keeps a peer that answers pings", async () => {
    const route = websocket({
      inbound: z.object({ type: z.literal("echo"), n: z.int() }),
      outbound: z.object({ type: z.literal("echo"), n: z.int() }),
      pingInterval: 20,
      async handler(socket) {
        for await (const message of socket) await socket.send(message);
      },
    });
    const app = createApp({ routes: [path("/echo", { websocket: route })] });
    const server = await startServer(app);
    const socket = await server.websocket(route);
    // Several ping intervals pass while messages go back and forth; the socket stays open.
    for (let n = 0; n < 20; n++) {
      await socket.send({ type: "echo", n });
      expect(await socket.receive()).toEqual({ type: "echo", n });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await socket.close()).toEqual({ code: 1000, reason: "" });
    await server.close();
  });
});

describe("message limits", () => {
  const limited = websocket({
    inbound: z.object({ text: z.string() }),
    outbound: z.object({ text: z.string(), length: z.int() }),
    maxPayload: 1024,
    onInvalid: "skip",
    async handler(socket) {
      for await (const message of socket)
        await socket.send({ text: message.text, length: message.text.length });
    },
  });
  const app = () => createApp({ routes: [path("/limited", { websocket: limited })] });

  it("closes with 1009 for a message over maxPayload", async () => {
    const socket = await testClient(app()).websocket(limited);
    await socket.send({ text: "x".repeat(2_000) });
    expect((await socket.closed).code).toBe(1009);
  });

  it("takes a message of 1 MiB by default, and closes with 1009 for one byte more", async () => {
    const unlimited = websocket({
      inbound: z.object({ text: z.string() }),
      outbound: z.object({ length: z.int() }),
      async handler(socket) {
        for await (const message of socket) await socket.send({ length: message.text.length });
      },
    });
    const client = testClient(createApp({ routes: [path("/unlimited", { websocket: unlimited })] }));
    const socket = await client.websocket(unlimited);
    const MiB = 1024 * 1024;
    // {"text":"…"} is 11 bytes around the text.
    await socket.sendRaw(JSON.stringify({ text: "x".repeat(MiB - 11) }));
    expect(await socket.receive()).toEqual({ length: MiB - 11 });
    await socket.sendRaw(JSON.stringify({ text: "x".repeat(MiB - 10) }));
    expect((await socket.closed).code).toBe(1009);
  });

  it("keeps the socket open after an invalid message when the route's policy is skip", async () => {
    const socket = await testClient(app()).websocket(limited);
    await socket.sendRaw("{not json");
    expect(await socket.receive()).toEqual({
      detail: [
        {
          loc: ["message"],
          msg: expect.stringMatching(/^Malformed JSON message: /),
          type: "json_invalid",
          input: null,
        },
      ],
    });
    await socket.send({ text: "still here" });
    expect(await socket.receive()).toEqual({ text: "still here", length: 10 });
    await socket.close();
  });

  it("rejects receive() with the close code once the socket closed", async () => {
    const socket = await testClient(app()).websocket(limited);
    await socket.close(4001, "done");
    const error = await socket.receive().catch((failure) => failure);
    expect(error).toBeInstanceOf(WebSocketClosedError);
    expect(error.code).toBe(4001);
  });
});

describe("a handler's socket", () => {
  it("yields the messages that arrived before the client closed, then ends its loop", async () => {
    const seen: string[] = [];
    let proceed!: () => void;
    const proceeding = new Promise<void>((resolve) => {
      proceed = resolve;
    });
    const route = websocket({
      inbound: z.object({ text: z.string() }),
      outbound: z.object({ type: z.literal("ready") }),
      async handler(socket) {
        await socket.send({ type: "ready" });
        for await (const message of socket) {
          seen.push(message.text);
          // Slower than the client: the rest wait in the queue while it closes.
          await proceeding;
        }
        seen.push(`loop ended, closed: ${socket.closed}`);
      },
    });
    const app = createApp({ routes: [path("/notes", { websocket: route })] });
    const server = await startServer(app);
    const socket = await server.websocket(route);
    expect(await socket.receive()).toEqual({ type: "ready" });
    for (const text of ["first", "second", "last"]) await socket.send({ text });
    await expect.poll(() => seen).toEqual(["first"]);
    await socket.close(1000, "done");
    proceed();
    await expect.poll(() => seen.length).toBe(4);
    expect(seen).toEqual(["first", "second", "last", "loop ended, closed: true"]);
    await server.close();
  });

  it("aborts its signal when the socket closes, and gives the close code and reason in done", async () => {
    const seen: unknown[] = [];
    const route = websocket({
      inbound: z.object({ type: z.literal("noop") }),
      outbound: z.object({ type: z.literal("ready") }),
      async handler(socket) {
        seen.push(`aborted at first: ${socket.signal.aborted}`);
        const aborted = new Promise((resolve) => socket.signal.addEventListener("abort", resolve));
        await socket.send({ type: "ready" });
        await aborted;
        seen.push(`aborted: ${socket.signal.aborted}, closed: ${socket.closed}`);
        seen.push(await socket.done);
      },
    });
    const app = createApp({ routes: [path("/signal", { websocket: route })] });
    const socket = await testClient(app).websocket(route);
    expect(await socket.receive()).toEqual({ type: "ready" });
    await socket.close(4000, "bye");
    await expect.poll(() => seen.length).toBe(3);
    expect(seen).toEqual([
      "aborted at first: false",
      "aborted: true, closed: true",
      { code: 4000, reason: "bye" },
    ]);
    await app.close();
  });

  it("logs what the handler threw with the upgrade request's id", async () => {
    const logged: unknown[] = [];
    const { app, chat } = chatApp({
      logger: {
        error: (details: Record<string, unknown>, message: string) =>
          logged.push([details.reqId, (details.err as Error).message, message]),
      },
    });
    const socket = await testClient(app).websocket(
      chat,
      { room: "lobby", nick: "ann" },
      { headers: { ...auth.headers, "x-request-id": "chat-7" } },
    );
    await socket.receive();
    await socket.send({ type: "fail" });
    expect((await socket.closed).code).toBe(1011);
    await expect.poll(() => logged.length).toBe(1);
    expect(logged).toEqual([
      [
        "chat-7",
        "The handler failed on purpose",
        'The handler of websocket "chat" (GET /chat/{room}) failed; its socket was closed with 1011',
      ],
    ]);
    await app.close();
  });
});

describe("a WebSocket route in a group", () => {
  it("resolves the group's dependencies before the handshake, and runs no middleware of the group or the app", async () => {
    const passed: string[] = [];
    const counting =
      (where: string): Middleware =>
      (request, next) => {
        passed.push(where);
        return next(request);
      };
    const requireKey = dependency({
      params: { key: p.Header(z.string().optional(), { alias: "X-Key" }) },
      resolve: (_request, { key }) => {
        if (key !== "open-sesame") throw new ForbiddenError("Wrong key");
      },
    });
    const route = websocket({
      inbound: z.object({ type: z.literal("noop") }),
      outbound: z.object({ type: z.literal("ready") }),
      async handler(socket) {
        await socket.send({ type: "ready" });
      },
    });
    const app = createApp({
      middleware: [counting("app")],
      routes: [
        path("/rooms", {
          dependencies: [requireKey],
          middleware: [counting("group")],
          routes: [path("/live", { websocket: route })],
        }),
      ],
    });
    const server = await startServer(app);
    const refused = await server.websocket(route).catch((error) => error);
    expect([refused.status, refused.json()]).toEqual([403, { detail: "Wrong key" }]);
    const socket = await server.websocket(route, {}, { headers: { "x-key": "open-sesame" } });
    expect(await socket.receive()).toEqual({ type: "ready" });
    expect((await socket.closed).code).toBe(1000);
    expect(passed).toEqual([]);
    await server.close();
  });
});
