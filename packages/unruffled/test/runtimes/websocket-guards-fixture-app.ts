// The app the cross-runtime suite of WebSocket guards serves with `unruffled serve` on Node (ws),
// Bun (Bun.serve's own WebSockets) and Deno (node:http): trustedHost(), httpsRedirect() and the
// app's own middleware guard every upgrade, behind a proxy on loopback that the app trusts.
import { createApp, HttpError, httpsRedirect, type Middleware, trustedHost } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { websocket } from "unruffled/websocket";
import { z } from "zod";

/** The sockets whose handler ran, by the origin their request resolved. */
const opened: string[] = [];

const chat = websocket({
  inbound: z.object({}),
  outbound: z.object({ origin: z.string() }),
  async handler(socket, _params, request) {
    opened.push(request.client.origin ?? "");
    await socket.send({ origin: request.client.origin ?? "" });
  },
});

/** The app's own middleware, guarding upgrades too: `?blocked=1` is refused. */
const blocking: Middleware = (request, next) => next(request);
blocking.guardUpgrade = (request) => {
  if (request.query.blocked === "1") throw new HttpError(403, "Blocked by the app's own guard");
};

const stats = endpoint({
  returns: JsonResponse,
  handler: () => new JsonResponse({ opened, sockets: app.websocketUpgrades?.size ?? 0 }),
});

export const app = createApp({
  settings: {
    ERRORS: { format: "problem" },
    PROXIES: { trusted: ["loopback"] },
    // Far beyond any wait of the tests: a connection they see closed was closed by the answer, not by a timeout.
    LIMITS: { request_timeout: 120_000, keep_alive_timeout: 120_000 },
  },
  middleware: [trustedHost({ hosts: ["127.0.0.1", "www.chat.example"] }), httpsRedirect(), blocking],
  routes: [
    path("/chat", { websocket: chat }),
    path("/stats", { endpoint: stats }),
    path("/hello", {
      endpoint: endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hi") }),
    }),
  ],
});
