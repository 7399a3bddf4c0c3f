// docs/websockets.md: an app embedded in the application's own Node server serves its WebSocket
// routes through `server.on("upgrade", app.upgradeHandler)` beside `http.createServer(app.nodeHandler)`,
// and leaves another protocol's upgrade offer to the HTTP routes with `app.shouldUpgrade`.
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { websocket } from "unruffled/websocket";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { z } from "zod";

const echo = websocket({
  inbound: z.object({ text: z.string() }),
  outbound: z.object({ text: z.string() }),
  async handler(socket) {
    for await (const message of socket) await socket.send(message);
  },
});
const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello") });

describe("an app in the application's own Node server", () => {
  it("answers HTTP through app.nodeHandler and opens WebSockets through app.upgradeHandler; app.close() sends them 1001", async () => {
    const app = createApp({
      routes: [path("/echo", { websocket: echo }), path("/hello", { endpoint: hello })],
    });
    const server = createServer(app.nodeHandler);
    server.on("upgrade", app.upgradeHandler!);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const answer = await fetch(`http://${origin}/hello`);
      expect([answer.status, await answer.text()]).toEqual([200, "Hello"]);

      const socket = new WebSocket(`ws://${origin}/echo`);
      const closed = new Promise<[number, string]>((resolve) =>
        socket.once("close", (code, reason) => resolve([code, String(reason)])),
      );
      await new Promise((resolve, reject) => {
        socket.once("open", resolve);
        socket.once("error", reject);
      });
      const echoed = new Promise((resolve) =>
        socket.once("message", (data) => resolve(JSON.parse(String(data)))),
      );
      socket.send(JSON.stringify({ text: "embedded" }));
      expect(await echoed).toEqual({ text: "embedded" });

      await app.close();
      expect(await closed).toEqual([1001, "The server is shutting down"]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("app.shouldUpgrade, Node's shouldUpgradeCallback of a server of one's own", () => {
  const app = createApp({
    routes: [path("/echo", { websocket: echo }), path("/hello", { endpoint: hello })],
  });
  // curl --http2 on an http:// URL offers h2c this way; a server may answer without switching.
  const h2cOffer =
    "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n" +
    "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n";

  async function statusLineOf(server: Server): Promise<string> {
    server.on("upgrade", app.upgradeHandler!);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
      socket.write(h2cOffer);
      const head = await new Promise<string>((resolve, reject) => {
        socket.once("data", (data) => resolve(String(data)));
        socket.once("error", reject);
      });
      socket.destroy();
      return head.slice(0, head.indexOf("\r\n"));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it("answers an h2c offer to an HTTP route as the request", async () => {
    const server = createServer({ shouldUpgradeCallback: app.shouldUpgrade }, app.nodeHandler);
    expect(await statusLineOf(server)).toBe("HTTP/1.1 200 OK");
  });

  it("is needed: without it, Node hands every upgrade offer to the WebSocket routes", async () => {
    expect(await statusLineOf(createServer(app.nodeHandler))).toBe("HTTP/1.1 404 Not Found");
  });

  it("is undefined in an app without WebSocket routes", () => {
    expect(createApp({ routes: [path("/hello", { endpoint: hello })] }).shouldUpgrade).toBeUndefined();
  });
});
