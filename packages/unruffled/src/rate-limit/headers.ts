import type { Decision } from "./gcra.ts";
import type { RateLimitPolicy } from "./policy.ts";

/** The revision of the IETF draft whose fields are sent: `RateLimit-Policy` and `RateLimit`. */
export const RATELIMIT_DRAFT = "draft-ietf-httpapi-ratelimit-headers-11";

/** The draft's problem type for a 429. */
export const QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";

/**
 * `RateLimit-Policy`: a structured-field List of the route's policies, each a String with its
 * quota (`q`) and window in seconds (`w`). The same for every answer of the route: built once.
 *
 * @example policyHeader([hourly]) // '"hourly";q=20;w=3600'
 */
export function policyHeader(policies: readonly RateLimitPolicy[]): string {
  return policies.map((policy) => `"${policy.name}";q=${policy.limit};w=${policy.window}`).join(", ");
}

/**
 * `RateLimit` of one route: each policy's remaining units (`r`) and the seconds until its quota is
 * whole (`t`), a structured-field List. Each policy's `"name";r=` is built once. A client under its
 * limits gets the same numbers request after request (its last unit is back before its next
 * request): for a route with one policy the last string is kept and sent again while they hold.
 *
 * @example new RateLimitField([hourly]).of([decision]) // '"hourly";r=19;t=180'
 */
export class RateLimitField {
  private readonly starts: readonly string[];
  private lastRemaining = -1;
  private lastSeconds = -1;
  private last = "";

  constructor(policies: readonly RateLimitPolicy[]) {
    this.starts = policies.map((policy) => `"${policy.name}";r=`);
  }

  of(decisions: readonly Decision[]): string {
    const starts = this.starts;
    if (starts.length === 1) {
      const remaining = decisions[0]!.remaining;
      const wait = seconds(decisions[0]!.reset);
      if (remaining !== this.lastRemaining || wait !== this.lastSeconds) {
        this.lastRemaining = remaining;
        this.lastSeconds = wait;
        this.last = `${starts[0]}${remaining};t=${wait}`;
      }
      return this.last;
    }
    let field = "";
    for (let index = 0; index < starts.length; index++) {
      const decision = decisions[index]!;
      field += `${index === 0 ? "" : ", "}${starts[index]}${decision.remaining};t=${seconds(decision.reset)}`;
    }
    return field;
  }
}

/** Microseconds as whole seconds, rounded up: a client that waits them is never early. */
export function seconds(microseconds: number): number {
  return Math.ceil(microseconds / 1_000_000);
}
