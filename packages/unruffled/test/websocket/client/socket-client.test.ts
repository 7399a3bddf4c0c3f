// The generated client's WebSocket members, on Node's own WebSocket, against a running app.
import { readFile } from "node:fs/promises";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, expect, expectTypeOf, it } from "vitest";
import { generateClient } from "../../../src/client-generator/index.ts";
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
