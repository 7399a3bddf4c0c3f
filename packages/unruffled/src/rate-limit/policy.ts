import { ValueError } from "../errors.ts";
import type { HttpRequest } from "../http/request.ts";

/** How a policy tells clients apart: a string per request (the principal, the address, a tenant…). */
export type RateLimitKey = (request: HttpRequest, principal: unknown) => string;

/** The options of `rateLimit()`. */
export interface RateLimitOptions {
  /** The policy's name, in the headers and the 429: letters, digits and `_ - . :`. */
  name: string;
  /** Units admitted per window (a positive whole number). */
  limit: number;
  /** The window, in seconds (a positive whole number): `3600` for "per hour". */
  window: number;
  /**
   * Who shares a quota (default: the principal of the route's security scheme, else the client's
   * address): `(request, principal) => string`.
   */
  key?: RateLimitKey;
  /** Units one request uses (default 1): a number, or `(request) => number` for a request's weight. */
  cost?: number | ((request: HttpRequest) => number);
}

/** A rate-limit policy, declared on a route, a `path()` group or the app with `rateLimits: [policy]`. */
export interface RateLimitPolicy {
  readonly kind: "rate-limit-policy";
  readonly name: string;
  readonly limit: number;
  readonly window: number;
  readonly key: RateLimitKey | undefined;
  readonly cost: number | ((request: HttpRequest) => number);
}

const NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * Declares a rate-limit policy: `limit` units per `window` seconds, per key. Checked here, compiled
 * when the app is built; a route without policies pays nothing.
 *
 * @example
 * const hourly = rateLimit({ name: "hourly", limit: 20, window: 3600 });
 * path("/search", { endpoint: search, rateLimits: [hourly] })
 */
export function rateLimit(options: RateLimitOptions): RateLimitPolicy {
  const { name, limit, window, key, cost = 1 } = options;
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new ValueError(
      `rateLimit(): the name ${JSON.stringify(name)} must be 1 to 64 letters, digits or "_-.:".`,
    );
  }
  for (const [field, value] of [
    ["limit", limit],
    ["window", window],
  ] as const) {
    if (!Number.isInteger(value) || value <= 0) {
      throw new ValueError(
        `rateLimit("${name}"): ${field} must be a positive whole number, got ${JSON.stringify(value)}.`,
      );
    }
  }
  if (typeof cost !== "function" && (!Number.isInteger(cost) || cost <= 0 || cost > limit)) {
    throw new ValueError(
      `rateLimit("${name}"): cost must be a whole number from 1 to the limit (${limit}), or a function; got ${JSON.stringify(cost)}.`,
    );
  }
  if (key !== undefined && typeof key !== "function") {
    throw new ValueError(`rateLimit("${name}"): key must be a function (request, principal) => string.`);
  }
  return Object.freeze({ kind: "rate-limit-policy", name, limit, window, key, cost });
}
