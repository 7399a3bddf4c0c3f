import { createApp, HttpError, type Middleware } from "unruffled";
import type { HttpRequest } from "unruffled/http";
import { path } from "unruffled/route";
import { websocket } from "unruffled/websocket";
import { z } from "zod";

export const feed = websocket({
  inbound: z.object({}),
  outbound: z.object({ user: z.string() }),
  async handler(socket, _params, request) {
    await socket.send({ user: request.cookies.session! });
  },
});

// #region guard
/** Refuses a request without a session cookie: a browser sends it with a page's WebSocket too. */
function requireSession(request: HttpRequest): undefined {
  if (request.cookies.session === undefined) throw new HttpError(401, "Sign in first");
}

/** Around every route; `guardUpgrade` makes it check every WebSocket upgrade as well. */
const sessionRequired: Middleware = (request, next) => {
  requireSession(request);
  return next(request);
};
sessionRequired.guardUpgrade = requireSession;
// #endregion

export const app = createApp({
  middleware: [sessionRequired],
  routes: [path("/feed", { websocket: feed })],
});
