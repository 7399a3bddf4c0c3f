import { HttpError } from "../errors.ts";
import type { Middleware } from "../http/middleware.ts";
import { RedirectResponse } from "../http/redirect-response.ts";
import type { HttpRequest } from "../http/request.ts";

/**
 * Sends a request that arrived over plain HTTP to the same URL over HTTPS: 307, so that the method
 * and body are sent again as they were. The scheme is the one `request.client` resolves: the
 * socket's, or `https` when a proxy the `PROXIES` setting trusts says so (`X-Forwarded-Proto`,
 * `Forwarded: proto=`). The host and port are the request's (a trusted proxy's forwarded host), port
 * 80 or 443 dropped; path and query kept. In the app's middleware it checks the WebSocket upgrades
 * too (`guardUpgrade`): one over plain `ws:` gets 307 to the same URL over `wss:`.
 *
 * @example createApp({ routes, middleware: [httpsRedirect()] })
 */
export function httpsRedirect(): Middleware {
  const middleware: Middleware = function httpsRedirect(request, next) {
    return redirect(request, "https") ?? next(request);
  };
  // An upgrade over plain `ws:` is never served: 307 to `wss:`, as Starlette answers it.
  middleware.guardUpgrade = function httpsRedirect(request) {
    return redirect(request, "wss");
  };
  return middleware;
}

/** Nothing for a request that came over HTTPS; else the 307 to the same URL over `scheme`. */
function redirect(request: HttpRequest, scheme: "https" | "wss"): RedirectResponse | undefined {
  const client = request.client;
  if (client.scheme === "https") return undefined;
  const origin = client.origin;
  if (origin === undefined) {
    throw new HttpError(400, "This app is served over HTTPS: the request names no host to redirect to.");
  }
  const location = `${scheme}://${withoutDefaultPort(origin.slice(origin.indexOf("//") + 2))}${request.rootPath}${request.url}`;
  return new RedirectResponse(location);
}

/** `example.com:80` → `example.com`, `[::1]:443` → `[::1]`; another port is kept. */
function withoutDefaultPort(authority: string): string {
  const colon = authority.lastIndexOf(":");
  if (colon < 0 || colon < authority.lastIndexOf("]")) return authority;
  const port = authority.slice(colon + 1);
  return port === "80" || port === "443" ? authority.slice(0, colon) : authority;
}
