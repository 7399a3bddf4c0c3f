// A WebSocket route's upgrade that reaches the HTTP routes, because the server that brought it
// cannot open a WebSocket (a bare `app.fetch`, Node's handler without the `upgrade` listener): a
// 501 that says how to serve the route, not a 404 that says the route does not exist.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "unruffled";
import { path } from "unruffled/route";
import { websocket } from "unruffled/websocket";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { bodyOf, openRaw, statusOf } from "../support/raw-http.ts";

const echo = websocket({
  inbound: z.object({ text: z.string() }),
  outbound: z.object({ text: z.string() }),
  async handler(socket) {
    for await (const message of socket) await socket.send(message);
  },
});
const app = createApp({ routes: [path("/echo/{room}", { websocket: echo })] });

const detail =
  "/echo/lobby is a WebSocket route, and the server that brought this request cannot open a WebSocket: serve the app with serve(app) or unruffled serve, or hand Node's upgrade requests to app.upgradeHandler";
const upgrade = { upgrade: "websocket", connection: "keep-alive, Upgrade" };

describe("a WebSocket upgrade the server cannot open", () => {
  it("is answered 501, saying how to serve the route, through app.fetch", async () => {
    const response = await app.fetch(new Request("http://localhost/echo/lobby", { headers: upgrade }));
    expect([response.status, await response.json()]).toEqual([501, { detail }]);
  });

  it("is answered 501 by Node's handler without the upgrade listener", async () => {
    const server = createServer(app.nodeHandler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const exchange = await openRaw((server.address() as AddressInfo).port);
      await exchange.write(
        "GET /echo/lobby HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
      );
      const raw = await exchange.waitFor('app.upgradeHandler"}');
      exchange.socket.destroy();
      expect([statusOf(raw), JSON.parse(bodyOf(raw))]).toEqual([501, { detail }]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("stays a 404 for a plain GET of the route's path, and for an upgrade of a path no route has", async () => {
    const plain = await app.fetch(new Request("http://localhost/echo/lobby"));
    const elsewhere = await app.fetch(new Request("http://localhost/nowhere", { headers: upgrade }));
    expect([plain.status, await plain.json()]).toEqual([404, { detail: "Not Found: /echo/lobby" }]);
    expect([elsewhere.status, await elsewhere.json()]).toEqual([404, { detail: "Not Found: /nowhere" }]);
  });
});
