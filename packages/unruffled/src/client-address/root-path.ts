import { ValueError } from "../errors.ts";
import type { ClientSocket } from "./resolve-client.ts";
import type { TrustedProxies } from "./trusted-proxies.ts";

// Segments of URL path characters (RFC 3986 pchar, percent-encoded bytes included), none empty.
const ROOT_PATH = /^(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+)+$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/** True for a root path as a request may take it: `/api/v1`, never `/`, `/a/`, `/a?b`, `/a/../b`. */
export function isRootPath(value: string): boolean {
  return ROOT_PATH.test(value) && !DOT_SEGMENT.test(value);
}

/**
 * Checks `ROOT_PATH` once, when the app is built: the path a proxy mounts the app under and strips
 * before forwarding; "" for none.
 *
 * @example rootPathSetting("/api/v1/") // ValueError: ROOT_PATH must not end with "/": write "/api/v1"
 */
export function rootPathSetting(value: unknown): string {
  if (value === undefined || value === "") return "";
  if (typeof value !== "string") {
    throw new ValueError(`ROOT_PATH must be a string such as "/api/v1", got ${JSON.stringify(value)}`);
  }
  if (!value.startsWith("/")) throw new ValueError(`ROOT_PATH must start with "/": write "/${value}"`);
  if (/[?#]/.test(value)) {
    throw new ValueError(`ROOT_PATH is a path, without "?" or "#": got ${JSON.stringify(value)}`);
  }
  if (value === "/")
    throw new ValueError('ROOT_PATH must not end with "/": write "" (or leave it out) for none');
  if (value.endsWith("/")) {
    throw new ValueError(
      `ROOT_PATH must not end with "/": write ${JSON.stringify(value.replace(/\/+$/, ""))}`,
    );
  }
  if (value.includes("//")) {
    throw new ValueError(`ROOT_PATH must not have an empty segment: got ${JSON.stringify(value)}`);
  }
  if (!isRootPath(value)) {
    const encoded = value.split("/").map(encodedSegment).join("/");
    throw new ValueError(
      DOT_SEGMENT.test(value)
        ? `ROOT_PATH must not have a "." or ".." segment: got ${JSON.stringify(value)}`
        : `ROOT_PATH has a character a URL path cannot carry as it is: got ${JSON.stringify(value)}; percent-encode it (${JSON.stringify(encoded)})`,
    );
  }
  return value;
}

// What to write instead: each segment percent-encoded once (one already encoded is kept).
function encodedSegment(segment: string): string {
  try {
    return encodeURIComponent(decodeURIComponent(segment));
  } catch {
    return encodeURIComponent(segment);
  }
}

/**
 * The root path a request was made under: the `X-Forwarded-Prefix` of a proxy the app trusts (the
 * socket's peer, `PROXIES.headers` "x-forwarded"), when it is a root path; else the app's own `ROOT_PATH`. A client no setting
 * trusts cannot move it.
 *
 * @example requestRootPath(socket, request.header("x-forwarded-prefix"), proxies, "") // "/api/v1"
 */
export function requestRootPath(
  socket: ClientSocket | undefined,
  forwarded: string | string[] | undefined,
  proxies: TrustedProxies,
  own: string,
): string {
  // Under `headers: "forwarded"` no X-Forwarded-* header is read: the proxy may not overwrite it.
  if (typeof forwarded !== "string" || proxies.headers !== "x-forwarded") return own;
  const peer = socket?.remoteAddress;
  if (peer === undefined || !proxies.trusts(peer, 0)) return own;
  return isRootPath(forwarded) ? forwarded : own;
}
