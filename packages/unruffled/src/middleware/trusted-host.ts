import { isIP } from "node:net";
import { HttpError, ValueError } from "../errors.ts";
import type { Middleware } from "../http/middleware.ts";
import { RedirectResponse } from "../http/redirect-response.ts";
import type { HttpRequest } from "../http/request.ts";

export interface TrustedHostOptions {
  /**
   * The hosts the app answers for, without port: `"example.com"`, `"*.example.com"` (its
   * subdomains, not itself), an IP address, or `"*"` for any host. Case does not matter.
   */
  hosts: readonly string[];
  /**
   * A request to `example.com` is redirected (307) to `www.example.com` when that is listed and
   * `example.com` is not (default true, as Starlette's `www_redirect`).
   */
  wwwRedirect?: boolean;
}

/** The hosts, checked and lower-cased once, when the app is built. */
interface HostPolicy {
  exact: ReadonlySet<string>;
  /** `.example.com` for `*.example.com`: a host that ends with it, and is longer, is a subdomain. */
  suffixes: readonly string[];
  /** The hosts a request is redirected from: `example.com` for a listed `www.example.com`. */
  wwwFrom: ReadonlySet<string>;
}

const NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/**
 * Answers only requests addressed to the app's own hosts, so that a page on another name (DNS
 * rebinding, a poisoned cache keyed by Host) cannot reach it. The host is the one `request.client`
 * resolves: the request's `Host` (or its absolute-form target), or what a trusted proxy forwarded
 * (`X-Forwarded-Host`, `Forwarded: host=`). Any other host, or none, gets 400 `Invalid host header`
 * (an `HttpError`, answered in the app's error format). In the app's middleware it checks the
 * WebSocket upgrades too (`guardUpgrade`), with the same answers.
 *
 * @example createApp({ routes, middleware: [trustedHost({ hosts: ["example.com", "*.example.com"] })] })
 */
export function trustedHost(options: TrustedHostOptions): Middleware {
  const hosts = checkedHosts(options);
  if (hosts.includes("*")) return (request, next) => next(request);
  const policy = hostPolicy(hosts, options.wwwRedirect !== false);

  const middleware: Middleware = function trustedHost(request, next) {
    return refusal(policy, request, false) ?? next(request);
  };
  // A WebSocket upgrade runs no middleware: without this, a page on a rebound name opens the app's sockets.
  middleware.guardUpgrade = function trustedHost(request) {
    return refusal(policy, request, true);
  };
  return middleware;
}

/**
 * Nothing for a request to an allowed host; the www redirect (to `ws:`/`wss:` for an upgrade); else
 * throws the 400.
 */
function refusal(policy: HostPolicy, request: HttpRequest, upgrade: boolean): RedirectResponse | undefined {
  const origin = request.client.origin;
  const host = origin === undefined ? undefined : hostOf(origin);
  if (host !== undefined && allows(policy, host)) return undefined;
  if (host !== undefined && policy.wwwFrom.has(host)) return wwwRedirect(request, origin!, upgrade);
  throw new HttpError(400, "Invalid host header");
}

function allows(policy: HostPolicy, host: string): boolean {
  if (policy.exact.has(host)) return true;
  for (const suffix of policy.suffixes) {
    if (host.length > suffix.length && host.endsWith(suffix)) return true;
  }
  return false;
}

/**
 * The host of `scheme://host[:port]`, lower case, without the port and a trailing dot
 * (`Example.COM.:8000` → `example.com`); an IPv6 literal in brackets, in its shortest form.
 */
function hostOf(origin: string): string {
  const authority = origin.slice(origin.indexOf("//") + 2);
  if (authority.startsWith("[")) return canonicalIPv6(authority.slice(0, authority.indexOf("]") + 1));
  const colon = authority.indexOf(":");
  const host = (colon < 0 ? authority : authority.slice(0, colon)).toLowerCase();
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

/** `[0:0::1]` → `[::1]`, as the WHATWG URL parser writes it; the text lower-cased if it is no address. */
function canonicalIPv6(bracketed: string): string {
  const url = `http://${bracketed}/`;
  return URL.canParse(url) ? new URL(url).hostname : bracketed.toLowerCase();
}

/**
 * The same URL on `www.` + the host, port, path and query kept (Starlette's rule); an upgrade's in
 * the WebSocket scheme (`ws:` for `http:`, `wss:` for `https:`).
 */
function wwwRedirect(request: HttpRequest, origin: string, upgrade: boolean): RedirectResponse {
  const start = origin.indexOf("//") + 2;
  const scheme = upgrade ? origin.slice(0, start).replace("http", "ws") : origin.slice(0, start);
  return new RedirectResponse(`${scheme}www.${origin.slice(start)}${request.rootPath}${request.url}`);
}

function checkedHosts(options: TrustedHostOptions): readonly string[] {
  const hosts = typeof options === "object" && options !== null ? options.hosts : undefined;
  if (!Array.isArray(hosts) || hosts.length === 0) {
    throw new ValueError(
      'trustedHost() needs the hosts the app serves: trustedHost({ hosts: ["example.com", "*.example.com"] }), or ["*"] for any host.',
    );
  }
  return hosts.map(checkedPattern);
}

/** A pattern lower-cased (an IPv6 address bracketed and shortened), or a ValueError saying what to write. */
function checkedPattern(pattern: unknown): string {
  if (pattern === "*") return pattern;
  if (typeof pattern !== "string") {
    throw new ValueError(
      `trustedHost(): hosts must be strings such as "example.com", got ${String(pattern)}.`,
    );
  }
  if (pattern.lastIndexOf("*") > 0 || (pattern.startsWith("*") && !pattern.startsWith("*."))) {
    throw new ValueError(
      `trustedHost(): ${JSON.stringify(pattern)} has a "*" elsewhere than a leading "*.": write "*.example.com" for the subdomains of example.com, or "*" for any host.`,
    );
  }
  const bare = pattern.startsWith("[") && pattern.endsWith("]") ? pattern.slice(1, -1) : pattern;
  if (isIP(bare) === 6) return canonicalIPv6(`[${bare}]`);
  const lower = pattern.toLowerCase();
  const name = lower.endsWith(".") ? lower.slice(0, -1) : lower;
  const wildcard = name.startsWith("*.");
  if (NAME.test(wildcard ? name.slice(2) : name)) return name;
  const parsed =
    pattern.includes("://") && URL.canParse(pattern) ? new URL(pattern).hostname : pattern.split(/[:/]/)[0]!;
  const hint = parsed !== "" && parsed !== pattern && NAME.test(parsed) ? `; did you mean "${parsed}"?` : "";
  throw new ValueError(
    `trustedHost(): ${JSON.stringify(pattern)} is no host: write a name or an address without scheme, port or path ("example.com", "*.example.com")${hint}`,
  );
}

function hostPolicy(hosts: readonly string[], wwwRedirect: boolean): HostPolicy {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  const wwwFrom = new Set<string>();
  for (const host of hosts) {
    if (host.startsWith("*.")) suffixes.push(host.slice(1));
    else exact.add(host);
  }
  if (wwwRedirect) {
    for (const host of exact) {
      if (host.startsWith("www.") && !exact.has(host.slice(4))) wwwFrom.add(host.slice(4));
    }
  }
  return { exact, suffixes, wwwFrom };
}
