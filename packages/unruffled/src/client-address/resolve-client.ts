import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";
import { forwardedAddress, parseForwarded } from "./forwarded-header.ts";
import type { TrustedProxies } from "./trusted-proxies.ts";

/**
 * Who sent the request, and how: the socket's peer, or, across trusted proxies, what they forwarded.
 * `host` and `port` are what `request.client` always had (`host` is the address).
 */
export interface Client {
  /** The client's IP address: the peer's, or the nearest untrusted one its trusted proxies name. */
  address: string | undefined;
  /** The same as `address` (the name Starlette's `request.client.host` has). */
  host: string | undefined;
  /** The peer's port when it is the client; undefined when the address came from a proxy. */
  port: number | undefined;
  /** The scheme the client used: `"https"` when a trusted proxy says so or the socket is TLS. */
  scheme: "http" | "https";
  /** `scheme://host[:port]` as the client addressed the app, for absolute URLs; undefined without a Host. */
  origin: string | undefined;
}

/** The socket as `request.client` reads it. */
export interface ClientSocket {
  readonly remoteAddress?: string | undefined;
  readonly remotePort?: number | undefined;
  readonly encrypted?: boolean | undefined;
}

// A Host (or forwarded host) a URL may be built with: a name or an address, and a port.
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Resolves the client of a request: walks the forwarding headers from the app outwards while each
 * hop is trusted, and stops at the first untrusted or unreadable one. Never throws.
 *
 * @example resolveClient(socket, { "x-forwarded-for": "203.0.113.7" }, proxies).address // "203.0.113.7"
 */
export function resolveClient(
  socket: ClientSocket | undefined,
  headers: IncomingHttpHeaders,
  proxies: TrustedProxies | undefined,
  authority?: string,
): Client {
  // A target in absolute form names the host itself, and a server uses it instead of Host (RFC 9112 §3.2.2).
  const host = authority ?? headers.host;
  const peer = socket?.remoteAddress;
  const direct = (): Client => {
    const scheme = socket?.encrypted === true ? "https" : "http";
    return {
      address: peer,
      host: peer,
      port: socket?.remotePort,
      scheme,
      origin: originOf(scheme, host),
    };
  };
  if (proxies === undefined || peer === undefined || !proxies.trusts(peer, 0)) return direct();
  return proxies.headers === "forwarded"
    ? viaForwarded(peer, headers, host, proxies, direct)
    : viaXForwarded(peer, headers, host, proxies, direct);
}

function viaXForwarded(
  peer: string,
  headers: IncomingHttpHeaders,
  ownHost: string | undefined,
  proxies: TrustedProxies,
  direct: () => Client,
): Client {
  // An entry may carry a port (Azure's proxies write `203.0.113.7:4711`): its address is read as
  // Forwarded's is; an entry with none stays as it is.
  const chain = listOf(headers["x-forwarded-for"]).map((entry) => forwardedAddress(entry) ?? "");
  if (chain.length === 0) return direct();
  const taken = walk(peer, chain, proxies);
  if (taken < 0) return direct();
  // The proxies append in step: proto and host per hop when their counts match, else the nearest proxy's.
  const protos = listOf(headers["x-forwarded-proto"]);
  const hosts = listOf(headers["x-forwarded-host"]);
  const proto = protos.length === chain.length ? protos[taken] : protos.at(-1);
  const host = hosts.length === chain.length ? hosts[taken] : hosts.at(-1);
  return forwarded(chain[taken]!, proto, host, ownHost, direct);
}

function viaForwarded(
  peer: string,
  headers: IncomingHttpHeaders,
  ownHost: string | undefined,
  proxies: TrustedProxies,
  direct: () => Client,
): Client {
  const header = headers.forwarded;
  if (typeof header !== "string" || header === "") return direct();
  const elements = parseForwarded(header);
  const taken = walk(
    peer,
    elements.map((element) => forwardedAddress(element.for) ?? ""),
    proxies,
  );
  if (taken < 0) return direct();
  const element = elements[taken]!;
  return forwarded(forwardedAddress(element.for)!, element.proto, element.host, ownHost, direct);
}

/**
 * The index in `chain` (leftmost: nearest the client) of the client's address: from the right,
 * each address whose sender was trusted is taken, until one is not trusted itself or the chain ends.
 * -1 when the rightmost entry is unreadable.
 */
function walk(peer: string, chain: readonly string[], proxies: TrustedProxies): number {
  let sender = peer;
  let hop = 0;
  let taken = -1;
  for (let index = chain.length - 1; index >= 0; index--) {
    if (!proxies.trusts(sender, hop)) break;
    const address = chain[index]!;
    if (isIP(address) === 0) break;
    taken = index;
    sender = address;
    hop++;
  }
  return taken;
}

function forwarded(
  address: string,
  proto: string | undefined,
  host: string | undefined,
  ownHost: string | undefined,
  direct: () => Client,
): Client {
  const lower = proto?.trim().toLowerCase();
  const scheme = lower === "https" || lower === "http" ? lower : direct().scheme;
  const trimmed = host?.trim();
  const origin = originOf(scheme, trimmed !== undefined && HOST.test(trimmed) ? trimmed : ownHost);
  return { address, host: address, port: undefined, scheme, origin };
}

function originOf(scheme: string, host: string | undefined): string | undefined {
  // An app hears the same Host on request after request: the last answer is kept, not tested again.
  if (host === lastOrigin.host && scheme === lastOrigin.scheme) return lastOrigin.origin;
  const origin = host !== undefined && HOST.test(host) ? `${scheme}://${host}` : undefined;
  lastOrigin = { host, scheme, origin };
  return origin;
}

let lastOrigin: { host: string | undefined; scheme: string; origin: string | undefined } = {
  host: undefined,
  scheme: "http",
  origin: undefined,
};

/** A comma-separated header (repeated headers arrive joined with ", "), trimmed, empty entries kept out. */
function listOf(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join(",") : header;
  const values: string[] = [];
  for (const part of text.split(",")) {
    const value = part.trim();
    if (value !== "") values.push(value);
  }
  return values;
}
