// Every test here runs twice: in process (testClient, no port) and against a listening server.
import { type RunningServer, startServer, testClient, WebSocketRefused } from "unruffled/testing";
import { afterEach, describe, expect, it } from "vitest";
import { chatApp } from "./chat-app.ts";

type Setup = ReturnType<typeof chatApp>;
type Connector = (setup: Setup) => Promise<{
  websocket: RunningServer["websocket"];
  close(): Promise<void>;
}>;

const connectors: [string, Connector][] = [
  [
    "in process",
    async ({ app }) => {
      const client = testClient(app);
      return { websocket: (route, ...args) => client.websocket(route, ...args), close: () => app.close() };
    },
  ],
  [
    "over a listening server",
    async ({ app }) => {
      const server = await startServer(app);
      return { websocket: server.websocket, close: () => server.close() };
    },
  ],
];

const auth = { headers: { authorization: "Bearer user-ann" } };

describe.each(connectors)("a WebSocket route, %s", (_name, connect) => {
  let opened: { close(): Promise<void> } | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });
  const setUp = async () => {
    const setup = chatApp();
    const client = await connect(setup);
    opened = client;
    return { ...setup, client };
  };

  it("sends typed messages both ways and closes with 1000", async () => {
    const { client, chat } = await setUp();
    const socket = await client.websocket(chat, { room: "lobby", nick: "ann" }, auth);
    expect(await socket.receive()).toEqual({ type: "joined", room: "lobby", nick: "ann", user: "ann" });
    await socket.send({ type: "say", text: "hello" });
    expect(await socket.receive()).toEqual({ type: "said", nick: "ann", text: "hello" });
    expect(await socket.close()).toEqual({ code: 1000, reason: "" });
  });

  it("closes with 1000 when the handler returns", async () => {
    const { client, chat } = await setUp();
    const socket = await client.websocket(chat, { room: "lobby", nick: "ann" }, auth);
    await socket.receive();
    await socket.send({ type: "leave" });
    expect(await socket.closed).toEqual({ code: 1000, reason: "" });
  });

  it("answers 401 with WWW-Authenticate, never 101, without a token; the handler runs 0 times", async () => {
    const { client, chat, events } = await setUp();
    const refused = await client.websocket(chat, { room: "lobby", nick: "ann" }).catch((error) => error);
    expect(refused).toBeInstanceOf(WebSocketRefused);
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe("Bearer");
    expect(refused.json()).toEqual({
      detail: "Not authenticated: send the header Authorization: Bearer <token>",
    });
    expect(events.handlerRuns).toBe(0);
    expect(events.entered).toBe(0);
  });

  it("answers 403 when a dependency refuses, after the generator dependency ran its clean-up once", async () => {
    const { client, chat, events } = await setUp();
    const refused = await client
      .websocket(chat, { room: "private", nick: "bob" }, { headers: { authorization: "Bearer user-bob" } })
      .catch((error) => error);
    expect(refused.status).toBe(403);
    expect(refused.json()).toEqual({ detail: "Only ann may join private" });
    expect(events.handlerRuns).toBe(0);
  });

  it("answers 422 with the issues when a parameter is invalid; the handler runs 0 times", async () => {
    const { client, chat, events } = await setUp();
    const refused = await client.websocket(chat, { room: "lobby", nick: "a" }, auth).catch((error) => error);
    expect(refused.status).toBe(422);
    expect(refused.json()).toEqual({
      detail: [
        {
          loc: ["query", "nick"],
          msg: "Too small: expected string to have >=2 characters",
          type: "too_small",
          input: "a",
        },
      ],
    });
    expect(events.handlerRuns).toBe(0);
  });

  it("answers 403 to a page of another origin (cross-site WebSocket hijacking)", async () => {
    const { client, chat, events } = await setUp();
    const refused = await client
      .websocket(
        chat,
        { room: "lobby", nick: "ann" },
        { headers: { ...auth.headers, origin: "https://evil.example" } },
      )
      .catch((error) => error);
    expect(refused.status).toBe(403);
    expect(refused.json()).toEqual({ detail: "The origin https://evil.example may not open this WebSocket" });
    expect(events.handlerRuns).toBe(0);
    expect(events.entered).toBe(0);
  });

  it("sends one error message listing the issues, then closes with 1007, for a message its model refuses", async () => {
    const { client, chat } = await setUp();
    const socket = await client.websocket(chat, { room: "lobby", nick: "ann" }, auth);
    await socket.receive();
    await socket.sendRaw(JSON.stringify({ type: "say", text: "" }));
    expect(await socket.receive()).toEqual({
      detail: [
        {
          loc: ["message", "text"],
          msg: "Too small: expected string to have >=1 characters",
          type: "too_small",
          input: "",
        },
      ],
    });
    expect(await socket.closed).toEqual({ code: 1007, reason: "The message does not match its model" });
  });

  it("closes with 1003 for a binary message", async () => {
    const { client, chat } = await setUp();
    const socket = await client.websocket(chat, { room: "lobby", nick: "ann" }, auth);
    await socket.receive();
    await socket.sendRaw(Buffer.from([1, 2, 3]), { binary: true });
    expect(await socket.closed).toEqual({
      code: 1003,
      reason: "Binary messages are not accepted; send JSON text",
    });
  });

  it("closes with 1011 when the handler throws", async () => {
    const { client, chat } = await setUp();
    const socket = await client.websocket(chat, { room: "lobby", nick: "ann" }, auth);
    await socket.receive();
    await socket.send({ type: "fail" });
    expect(await socket.closed).toEqual({ code: 1011, reason: "Internal Server Error" });
  });

  it("runs the generator dependency's clean-up exactly once when the client closes", async () => {
    const { client, chat, events, app } = await setUp();
    const socket = await client.websocket(chat, { room: "lobby", nick: "ann" }, auth);
    await socket.receive();
    expect(events.cleanedUp).toBe(0);
    await socket.close(4000, "bye");
    await app.settled();
    await expect.poll(() => events.cleanedUp).toBe(1);
    expect(events.entered).toBe(1);
  });

  it("refuses a message nested deeper than the app's LIMITS.json_depth with one error message, then 1007", async () => {
    const setup = chatApp({ settings: { LIMITS: { json_depth: 3 } } });
    const client = await connect(setup);
    opened = client;
    const socket = await client.websocket(setup.chat, { room: "lobby", nick: "ann" }, auth);
    await socket.receive();
    // Three levels pass (the message, a list, a list); a fourth does not.
    await socket.sendRaw(JSON.stringify({ type: "say", text: "deep enough", extra: [[1]] }));
    expect(await socket.receive()).toEqual({ type: "said", nick: "ann", text: "deep enough" });
    await socket.sendRaw(JSON.stringify({ type: "say", text: "too deep", extra: [[[1]]] }));
    expect(await socket.receive()).toEqual({
      detail: [
        {
          loc: ["message"],
          msg: "Malformed JSON message: nested deeper than the limit of 3 levels",
          type: "json_invalid",
          input: null,
        },
      ],
    });
    expect(await socket.closed).toEqual({ code: 1007, reason: "The message does not match its model" });
  });
});
