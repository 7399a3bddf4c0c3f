// The generated client's WebSocket members, on Node's own WebSocket, against a running app.
import { readFile } from "node:fs/promises";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { waitFor } from "process-support";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { generateClient } from "../../../src/client-generator/index.ts";
import { settledNow } from "../../support/settled-now.ts";
import { type ChatOutbound, type Client, createClient } from "./socket-client.generated.ts";
import { socketClientApp } from "./socket-client-app.ts";

let server: RunningServer;
let client: Client;
beforeAll(async () => {
  server = await startServer(socketClientApp());
  client = createClient({ baseUrl: server.url });
});
afterAll(async () => {
  await server?.close();
});

const auth = { headers: { authorization: "Bearer user-ann" } };

it("is the client the fixture app generates now", async () => {
  const onDisk = await readFile(new URL("./socket-client.generated.ts", import.meta.url), "utf8");
  expect(onDisk).toBe(generateClient(socketClientApp()));
});

it("connects, sends typed messages, iterates typed answers, and gives the close code as a value", async () => {
  const result = await client.chat({ room: "lobby", nick: "ann" }, auth);
  if (!result.ok) throw new Error(`not open: ${result.close.code}`);
  const { socket } = result;
  const received: ChatOutbound[] = [];
  for await (const message of socket) {
    expectTypeOf(message).toEqualTypeOf<ChatOutbound>();
    received.push(message);
    if (message.type === "joined") socket.send({ type: "say", text: "hello" });
    else socket.close(1000);
  }
  expect(received).toEqual([
    { type: "joined", room: "lobby", nick: "ann", user: "ann" },
    { type: "said", nick: "ann", text: "hello" },
  ]);
  expect(await socket.closed).toEqual({ code: 1000, reason: "", wasClean: true });
});

it("gives the server's close code: 1007 after the error message for an invalid message", async () => {
  const result = await client.chat({ room: "lobby", nick: "ann" }, auth);
  if (!result.ok) throw new Error("not open");
  const messages: unknown[] = [];
  result.socket.send({ type: "say", text: "" });
  for await (const message of result.socket) messages.push(message);
  expect(messages[1]).toEqual({
    detail: [
      {
        loc: ["message", "text"],
        msg: "Too small: expected string to have >=1 characters",
        type: "too_small",
        input: "",
      },
    ],
  });
  expect((await result.socket.closed).code).toBe(1007);
});

it("resolves to the close, never rejects, when the upgrade is refused", async () => {
  const result = await client.chat({ room: "lobby", nick: "ann" });
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.close.code).toBe(1006);
});

it("closes the socket (1000) when a loop over it ends early, as breaking out of an event stream's loop does", async () => {
  const result = await client.chat({ room: "lobby", nick: "ann" }, auth);
  if (!result.ok) throw new Error("not open");
  let close: unknown;
  void result.socket.closed.then((value) => {
    close = value;
  });
  for await (const message of result.socket) if (message.type === "joined") break;
  await waitFor("the socket to close after the loop's break", () => close);
  expect(close).toEqual({ code: 1000, reason: "", wasClean: true });
  // The iteration is over: a new loop reads nothing.
  expect(await result.socket[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
});

it("keeps the socket open when read with next(), so it can still send between reads", async () => {
  const result = await client.chat({ room: "lobby", nick: "ann" }, auth);
  if (!result.ok) throw new Error("not open");
  const messages = result.socket[Symbol.asyncIterator]();
  expect(await messages.next()).toEqual({
    done: false,
    value: { type: "joined", room: "lobby", nick: "ann", user: "ann" },
  });
  result.socket.send({ type: "say", text: "still here" });
  expect(await messages.next()).toEqual({
    done: false,
    value: { type: "said", nick: "ann", text: "still here" },
  });
  result.socket.send({ type: "leave" });
  expect(await messages.next()).toEqual({ done: true, value: undefined });
  expect(await result.socket.closed).toEqual({ code: 1000, reason: "", wasClean: true });
});

it("gives each of several next() calls waiting at once the next message in order, then done at the close", async () => {
  const result = await client.chat({ room: "lobby", nick: "ann" }, auth);
  if (!result.ok) throw new Error("not open");
  const messages = result.socket[Symbol.asyncIterator]();
  const reads = [messages.next(), messages.next(), messages.next(), messages.next()];
  result.socket.send({ type: "say", text: "one" });
  result.socket.send({ type: "leave" });
  expect(await result.socket.closed).toEqual({ code: 1000, reason: "", wasClean: true });
  expect(await settledNow(reads)).toEqual([
    { done: false, value: { type: "joined", room: "lobby", nick: "ann", user: "ann" } },
    { done: false, value: { type: "said", nick: "ann", text: "one" } },
    { done: true, value: undefined },
    { done: true, value: undefined },
  ]);
});

it.each([
  [
    "an empty base URL where there is no page (Node)",
    "",
    'The socket could not be opened on baseUrl "": Invalid URL',
  ],
  [
    "a base URL of another scheme",
    "ftp://127.0.0.1:1",
    "The socket could not be opened on ftp://127.0.0.1:1/chat/lobby?nick=ann: expected a ws: or wss: url",
  ],
  [
    "a ws+unix: base URL",
    "ws+unix:/tmp/chat.sock",
    "The socket could not be opened on ws+unix:/tmp/chat.sock/chat/lobby?nick=ann: expected a ws: or wss: url",
  ],
])(
  "resolves to a close (1006, the reason in words), never throwing, for %s",
  async (_what, baseUrl, reason) => {
    const connecting = createClient({ baseUrl }).chat({ room: "lobby", nick: "ann" });
    expect(await connecting).toEqual({ ok: false, close: { code: 1006, reason, wasClean: false } });
  },
);

describe("options.signal (docs/websockets.md, In the generated client)", () => {
  it("resolves an upgrade no one answers to a close (1006) once it aborts, instead of waiting forever", async () => {
    // A server that takes the connection and never answers the upgrade.
    const connections = new Set<Socket>();
    const silent = createServer((connection) => {
      connections.add(connection);
      connection.on("close", () => connections.delete(connection));
    });
    await new Promise<void>((listening) => silent.listen(0, "127.0.0.1", listening));
    const { port } = silent.address() as AddressInfo;
    try {
      const abort = new AbortController();
      const connecting = createClient({ baseUrl: `http://127.0.0.1:${port}` }).chat(
        { room: "lobby", nick: "ann" },
        { signal: abort.signal },
      );
      await waitFor("the client to connect to the silent server", () => connections.size === 1 || undefined);
      abort.abort();
      const result = await connecting;
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.close).toMatchObject({ code: 1006, wasClean: false });
    } finally {
      for (const connection of connections) connection.destroy();
      await new Promise((closed) => silent.close(closed));
    }
  });

  it("closes an open socket (1000) when it aborts, which ends the loop", async () => {
    const abort = new AbortController();
    const result = await client.chat({ room: "lobby", nick: "ann" }, { ...auth, signal: abort.signal });
    if (!result.ok) throw new Error(`not open: ${result.close.code}`);
    const received: ChatOutbound[] = [];
    for await (const message of result.socket) {
      received.push(message);
      abort.abort();
    }
    expect(received).toEqual([{ type: "joined", room: "lobby", nick: "ann", user: "ann" }]);
    expect(await result.socket.closed).toEqual({ code: 1000, reason: "", wasClean: true });
    // A message sent once the socket closed is dropped, not thrown.
    expect(result.socket.send({ type: "say", text: "too late" })).toBeUndefined();
  });

  it("resolves to a close (1006) for a signal aborted already, without opening", async () => {
    const result = await client.chat(
      { room: "lobby", nick: "ann" },
      { ...auth, signal: AbortSignal.abort() },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.close).toMatchObject({ code: 1006, wasClean: false });
  });
});
