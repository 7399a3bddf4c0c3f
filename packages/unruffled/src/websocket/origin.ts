import type { HttpRequest } from "../http/request.ts";
import type { WebSocketDescription } from "./description.ts";

/**
 * Whether the upgrade's `Origin` may open the socket (cross-site WebSocket hijacking: a browser
 * sends the user's cookies with any page's WebSocket, and no CORS preflight stops it). Without an
 * `Origin` (not a browser) it may; by default only a page of the request's own origin (its `Host`)
 * may, else the route's `origins`.
 *
 * @example allowsOrigin(description, request) // false for Origin: https://evil.example on Host: api.example.com
 */
export function allowsOrigin(
  description: WebSocketDescription,
  request: HttpRequest,
): boolean | Promise<boolean> {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const check = description.allowsOrigin;
  if (check === "*") return true;
  if (check !== undefined) return check(origin.toLowerCase(), request);
  return sameHost(origin, request.headers.host);
}

function sameHost(origin: string, host: string | undefined): boolean {
  if (host === undefined || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  const defaultPort = url.protocol === "https:" ? "443" : url.protocol === "http:" ? "80" : "";
  const originHost = url.port === "" || url.port === defaultPort ? url.hostname : url.host;
  const requestHost = host.toLowerCase().replace(/:(80|443)$/, "");
  return originHost === requestHost || url.host === host.toLowerCase();
}
