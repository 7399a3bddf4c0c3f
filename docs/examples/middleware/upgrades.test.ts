import { startServer, WebSocketRefused } from "unruffled/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { app, feed } from "./upgrades.ts";

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer(app);
});
afterAll(() => server.close());

it("refuses an upgrade without a session before the handshake, with the app's 401", async () => {
  const refused = await server.websocket(feed).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(WebSocketRefused);
  expect([(refused as WebSocketRefused).status, await (refused as WebSocketRefused).json()]).toEqual([
    401,
    { detail: "Sign in first" },
  ]);
});

it("opens the socket of a signed-in user", async () => {
  const socket = await server.websocket(feed, {}, { cookies: { session: "ann" } });
  expect(await socket.receive()).toEqual({ user: "ann" });
  await socket.close();
});
