import { BlockList, isIP } from "node:net";
import { ValueError } from "../errors.ts";

/**
 * `PROXIES` settings: which peers may tell the client's address, scheme and host in forwarding
 * headers. Without them (the default) the headers are ignored and `request.client` is the socket's
 * peer, since any client can write them.
 *
 * @example settings: { PROXIES: { trusted: ["loopback", "10.0.0.0/8"] } }   // behind nginx on 10.x
 * @example settings: { PROXIES: { trusted: 1 } }                            // exactly one proxy in front
 */
export interface ProxySettings {
  /**
   * Addresses and CIDR ranges (IPv4 and IPv6) of the proxies, with the names `loopback`,
   * `linklocal` and `uniquelocal` (private ranges) for their ranges; or the number of proxies in
   * front of the app (each hop counted from the app outwards is trusted); or `true` for any peer
   * (only when nothing else can reach the app).
   */
  trusted: readonly string[] | string | number | boolean;
  /**
   * Which headers the proxies set: `"x-forwarded"` (default: X-Forwarded-For, -Proto and -Host, as
   * nginx and HAProxy are usually told to) or `"forwarded"` (RFC 7239). Only one is read, so that a
   * client cannot slip in the one its proxy does not overwrite.
   */
  headers?: "x-forwarded" | "forwarded";
}

/** The names of ranges, as Express's `trust proxy` has them. */
const RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/** Who may tell the client's address: made once from `PROXIES`, read lazily by `request.client`. */
export class TrustedProxies {
  readonly headers: "x-forwarded" | "forwarded";
  private readonly list: BlockList | undefined;
  /** Hops trusted by count; Infinity for `true`, 0 when a list decides. */
  private readonly hops: number;

  constructor(list: BlockList | undefined, hops: number, headers: "x-forwarded" | "forwarded") {
    this.list = list;
    this.hops = hops;
    this.headers = headers;
  }

  /** Whether the peer `hop` steps from the app (0: the socket's) at `address` may forward. */
  trusts(address: string, hop: number): boolean {
    if (this.list === undefined) return hop < this.hops;
    const family = isIP(address);
    if (family === 4) return this.list.check(address, "ipv4");
    if (family !== 6) return false;
    // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
    const mapped = unmappedIPv4(address);
    return mapped === undefined ? this.list.check(address, "ipv6") : this.list.check(mapped, "ipv4");
  }
}

/** `::ffff:192.0.2.1` → `192.0.2.1`; undefined for any other address. */
export function unmappedIPv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  if (!lower.startsWith("::ffff:")) return undefined;
  const rest = address.slice(7);
  return isIP(rest) === 4 ? rest : undefined;
}

/**
 * Checks `PROXIES` once, when the app is built; undefined when no proxy is trusted.
 *
 * @example trustedProxies({ trusted: ["10.0.0.0/8"] })?.trusts("10.1.2.3", 0) // true
 */
export function trustedProxies(settings: unknown): TrustedProxies | undefined {
  if (settings === undefined) return undefined;
  if (typeof settings !== "object" || settings === null) {
    throw new ValueError('The PROXIES setting must be an object such as { trusted: ["10.0.0.0/8"] }.');
  }
  for (const key of Object.keys(settings)) {
    if (key !== "trusted" && key !== "headers") {
      throw new ValueError(`Unknown PROXIES setting "${key}"; use trusted, headers.`);
    }
  }
  const { trusted, headers = "x-forwarded" } = settings as ProxySettings;
  if (headers !== "x-forwarded" && headers !== "forwarded") {
    throw new ValueError(
      `The PROXIES setting "headers" must be "x-forwarded" or "forwarded", got ${JSON.stringify(headers)}.`,
    );
  }
  if (trusted === false || trusted === 0) return undefined;
  if (trusted === true) return new TrustedProxies(undefined, Number.POSITIVE_INFINITY, headers);
  if (typeof trusted === "number") {
    if (!Number.isInteger(trusted) || trusted < 0) {
      throw new ValueError(
        `The PROXIES setting "trusted" as a hop count must be a whole number, got ${trusted}.`,
      );
    }
    return new TrustedProxies(undefined, trusted, headers);
  }
  const entries = typeof trusted === "string" ? trusted.split(",") : trusted;
  if (!Array.isArray(entries) || entries.length === 0) {
    throw new ValueError(
      'The PROXIES setting "trusted" takes addresses or CIDR ranges, a number of hops, or true.',
    );
  }
  const list = new BlockList();
  for (const entry of entries)
    for (const range of RANGES[String(entry).trim()] ?? [String(entry).trim()]) add(list, range);
  return new TrustedProxies(list, 0, headers);
}

function add(list: BlockList, range: string): void {
  const slash = range.indexOf("/");
  const address = slash < 0 ? range : range.slice(0, slash);
  const family = isIP(address);
  const bits = slash < 0 ? (family === 4 ? 32 : 128) : Number(range.slice(slash + 1));
  const max = family === 4 ? 32 : 128;
  if (family === 0 || !/^\d{1,3}$/.test(String(bits)) || bits > max) {
    throw new ValueError(
      `The PROXIES setting "trusted" has "${range}", which is no address, CIDR range (10.0.0.0/8, fd00::/8) or name (loopback, linklocal, uniquelocal).`,
    );
  }
  list.addSubnet(address, bits, family === 4 ? "ipv4" : "ipv6");
  // A trusted IPv4 range also covers its addresses as an IPv6 socket shows them is done by `trusts`.
}
