import { isIPv6 } from "node:net";
import { HttpError } from "../errors.ts";

/**
 * Where a request's target comes from when the adapter has not read it: a web `Request`, whose
 * absolute `url` a runtime may make as a new string on every read (Bun does). A request routed by
 * the runtime's own server (`Bun.serve`'s routes) reads it only if something asks for the URL, the
 * path or the query string.
 */
export interface UrlSource {
  readonly url: string;
}

/**
 * The request target (path and query, as sent) of an absolute URL: the runtime parsed and
 * normalised it already, so the target is what follows the authority.
 *
 * @example targetOf("http://localhost:8000/items?page=2") // "/items?page=2"
 */
export function targetOf(url: string): string {
  const authority = url.indexOf("//");
  const pathStart = url.indexOf("/", authority < 0 ? 0 : authority + 2);
  return pathStart < 0 ? "/" : url.slice(pathStart);
}

/**
 * The origin form (path and query) of a request target as the client sent it. A target in absolute
 * form (`GET http://host/items?page=2`, what a client sends to a proxy) is read as its path and
 * query, since a server must accept that form (RFC 9112 §3.2.2) and routes by the path; "/" when it
 * names no path. Any other target (origin form, `*`, an authority, a URI of another scheme) is
 * returned as it is.
 *
 * @example originFormOf("http://localhost:8000/items?page=2") // "/items?page=2"
 */
export function originFormOf(target: string): string {
  if (target.charCodeAt(0) === SLASH || !ABSOLUTE_FORM.test(target)) return target;
  const pathStart = target.indexOf("/", target.indexOf("//") + 2);
  const queryStart = target.indexOf("?");
  if (pathStart >= 0 && (queryStart < 0 || pathStart < queryStart)) return target.slice(pathStart);
  return queryStart < 0 ? "/" : `/${target.slice(queryStart)}`;
}

/**
 * The authority (`host[:port]`) of a target in absolute form, which a server uses instead of the
 * `Host` header (RFC 9112 §3.2.2); undefined for a target of any other form.
 *
 * @example authorityOf("http://example.com:8080/items?page=2") // "example.com:8080"
 */
export function authorityOf(target: string): string | undefined {
  if (target.charCodeAt(0) === SLASH || !ABSOLUTE_FORM.test(target)) return undefined;
  const start = target.indexOf("//") + 2;
  const end = target.slice(start).search(/[/?#]/);
  return end < 0 ? target.slice(start) : target.slice(start, start + end);
}

/**
 * The authority of a runtime's absolute URL when the target was sent in absolute form: the URL was
 * then made from the target (Deno, `@hono/node-server`), not from `Host`. Undefined when it names
 * the Host header's authority (as the runtime normalised it: lower case, no default port), and
 * without a Host, where the runtime made one up. Bun makes the URL from `Host` in both cases.
 *
 * @example absoluteFormAuthority("http://h.example:81/x", "127.0.0.1") // "h.example:81"
 */
export function absoluteFormAuthority(url: string, host: string | undefined): string | undefined {
  if (host === undefined) return undefined;
  const authority = authorityOf(url);
  if (authority === undefined || authority === host) return undefined;
  const defaultPort = url.charCodeAt(4) === COLON ? ":80" : ":443";
  const lower = host.toLowerCase();
  const normalised = lower.endsWith(defaultPort) ? lower.slice(0, -defaultPort.length) : lower;
  return authority.toLowerCase() === normalised ? undefined : authority;
}

// RFC 3986 reg-name characters: unreserved and sub-delims (`%` starts a percent-encoding). An IPv4
// address is a reg-name too; so is an empty one.
const NAME_CHARS = new Uint8Array(128);
for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=") {
  NAME_CHARS[char.charCodeAt(0)] = 1;
}
// RFC 3986 IPvFuture, inside the brackets.
const IP_FUTURE = /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/;
const COLON = 58;
const PERCENT = 37;
const OPEN_BRACKET = 91;
const LARGEST_PORT = 65535;

// An app hears the same Host on request after request: the last valid one is not checked again.
let lastValidHost: string | undefined;

/**
 * Whether a Host header's value is one `host[:port]` (RFC 9112 §3.2, RFC 3986): a name or an IPv4
 * address, or an `[IPv6]` literal, with a port of digits up to 65535 (or none after the colon). Two
 * Host lines, which Node (with `joinDuplicateHeaders`) and Bun hand over joined by `, `, never are:
 * a space is in no host. One pass over the characters: no regular expression on the hot path.
 *
 * @example isValidHost("api.example.com:8443") // true; isValidHost("a.example, b.example") // false
 */
export function isValidHost(host: string): boolean {
  if (host === lastValidHost) return true;
  const length = host.length;
  let index = 0;
  if (host.charCodeAt(0) === OPEN_BRACKET) {
    const close = host.indexOf("]");
    if (close < 0) return false;
    const literal = host.slice(1, close);
    if (!isIPv6(literal) && !IP_FUTURE.test(literal)) return false;
    index = close + 1;
    if (index < length && host.charCodeAt(index) !== COLON) return false;
  } else {
    for (; index < length; index++) {
      const code = host.charCodeAt(index);
      if (code === COLON) break;
      if (code === PERCENT) {
        if (!isHexDigit(host.charCodeAt(index + 1)) || !isHexDigit(host.charCodeAt(index + 2))) return false;
        index += 2;
      } else if (code >= 128 || NAME_CHARS[code] === 0) return false;
    }
  }
  let port = 0;
  for (let at = index + 1; at < length; at++) {
    const digit = host.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) return false;
    port = port * 10 + digit;
    if (port > LARGEST_PORT) return false;
  }
  lastValidHost = host;
  return true;
}

function isHexDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

// How much of a refused Host the answer quotes.
const QUOTED_HOST_LENGTH = 100;

/**
 * The 400 for a request whose Host header cannot be served (RFC 9112 §3.2): more than one Host line,
 * or a value that is not one `host[:port]`, quoted (at most 100 characters, JSON-escaped); with
 * `required` (an HTTP/1.1 request whose server does not check it itself), none at all. Undefined
 * for a request that may be answered. Without `required`, no Host is the runtime's to refuse: Bun
 * (and Node's server made without `requireHostHeader: false`) refuses an HTTP/1.1 request without
 * one itself, HTTP/1.0 needs none, and a `Request` made in process (`app.fetch`) has none.
 *
 * @example hostRefusal("a b")?.message // 'Invalid Host header: "a b"'
 */
export function hostRefusal(host: string | string[] | undefined, required = false): HttpError | undefined {
  if (typeof host === "string") {
    if (isValidHost(host)) return undefined;
    const quoted = JSON.stringify(host.slice(0, QUOTED_HOST_LENGTH));
    const cut =
      host.length > QUOTED_HOST_LENGTH ? ` (first ${QUOTED_HOST_LENGTH} of ${host.length} characters)` : "";
    return new HttpError(400, `Invalid Host header: ${quoted}${cut}`);
  }
  if (host !== undefined) return hostRefusal(host.join(", "));
  return required
    ? new HttpError(400, "Missing Host header: an HTTP/1.1 request must name its host")
    : undefined;
}

const SLASH = 47;
// An http or https URI with an authority: the targets an HTTP server serves (any other scheme, such
// as `ftp://host/x`, names no resource of this server and is left to the router's 404).
const ABSOLUTE_FORM = /^https?:\/\//i;

/**
 * The query string (without `?`) of an absolute URL, read from it straight: a request whose runtime
 * routed it reads its query without making its target or path strings first.
 *
 * @example queryOf("http://localhost:8000/items?page=2") // "page=2"
 */
export function queryOf(url: string): string {
  const authority = url.indexOf("//");
  const pathStart = url.indexOf("/", authority < 0 ? 0 : authority + 2);
  if (pathStart < 0) return "";
  const queryStart = url.indexOf("?", pathStart);
  return queryStart < 0 ? "" : url.slice(queryStart + 1);
}
