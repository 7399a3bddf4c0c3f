import { HttpError } from "../errors.ts";
import type { Middleware } from "../http/middleware.ts";
import { RedirectResponse } from "../http/redirect-response.ts";

/**
 * Sends a request that arrived over plain HTTP to the same URL over HTTPS: 307, so that the method
 * and body are sent again as they were. The scheme is the one `request.client` resolves: the
 * socket's, or `https` when a proxy the `PROXIES` setting trusts says so (`X-Forwarded-Proto`,
 * `Forwarded: proto=`). The host and port are the request's (a trusted proxy's forwarded host), port
 * 80 or 443 dropped; path and query kept.
 *
 * @example createApp({ routes, middleware: [httpsRedirect()] })
 */
export function httpsRedirect(): Middleware {
  return function httpsRedirect(request, next) {
    const client = request.client;
    if (client.scheme === "https") return next(request);
    const origin = client.origin;
    if (origin === undefined) {
      throw new HttpError(400, "This app is served over HTTPS: the request names no host to redirect to.");
    }
    const location = `https://${withoutDefaultPort(origin.slice(origin.indexOf("//") + 2))}${request.url}`;
    return new RedirectResponse(location);
  };
}

/** `example.com:80` → `example.com`, `[::1]:443` → `[::1]`; another port is kept. */
function withoutDefaultPort(authority: string): string {
  const colon = authority.lastIndexOf(":");
  if (colon < 0 || colon < authority.lastIndexOf("]")) return authority;
  const port = authority.slice(colon + 1);
  return port === "80" || port === "443" ? authority.slice(0, colon) : authority;
}
