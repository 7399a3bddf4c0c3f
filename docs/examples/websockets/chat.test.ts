// The behaviour docs/websockets.md promises, on its example app.
import { startServer, testClient, WebSocketRefused } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { app, chat, online } from "./chat.ts";

const ann = { headers: { authorization: "Bearer user-ann" } };
const bob = { headers: { authorization: "Bearer user-bob" } };

describe("the chat example", () => {
  it("fans a message out to every socket of the room, once each", async () => {
    const client = testClient(app);
    // Each handler subscribes before it reads: a round trip proves a socket is subscribed.
    const joined = async (room: string, auth: typeof ann) => {
      const socket = await client.websocket(chat, { room }, auth);
      await socket.send({ type: "typing" });
      await socket.receive();
      return socket;
    };
    const first = await joined("lobby", ann);
    const second = await joined("lobby", bob);
    const elsewhere = await joined("garden", bob);
    await first.send({ type: "say", text: "hello" });
    expect(await first.receive()).toEqual({ type: "typing", user: "bob" });
    expect(await first.receive()).toEqual({ type: "said", room: "lobby", user: "ann", text: "hello" });
    expect(await second.receive()).toEqual({ type: "said", room: "lobby", user: "ann", text: "hello" });
    await elsewhere.send({ type: "typing" });
    // Nothing from the lobby reached the garden: its next message is its own.
    expect(await elsewhere.receive()).toEqual({ type: "typing", user: "bob" });
    expect(online).toEqual(new Set(["lobby/ann", "lobby/bob", "garden/bob"]));
    await app.close();
    expect(online).toEqual(new Set());
  });

  it("answers 401 to an upgrade without a token, over a real socket", async () => {
    const server = await startServer(app);
    const refused = await server.websocket(chat, { room: "lobby" }).catch((error) => error);
    expect(refused).toBeInstanceOf(WebSocketRefused);
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe("Bearer");
    await server.close();
  });

  it("refuses a message its model refuses with one error message, then 1007", async () => {
    const socket = await testClient(app).websocket(chat, { room: "lobby" }, ann);
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
    expect((await socket.closed).code).toBe(1007);
    await app.close();
  });
});
