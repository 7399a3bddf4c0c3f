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
 * The start of each policy's member of `RateLimit` (its name, as a String, and `;r=`): the same for
 * every answer of the route, built once.
 *
 * @example rateLimitMembers([hourly]) // ['"hourly";r=']
 */
export function rateLimitMembers(policies: readonly RateLimitPolicy[]): string[] {
  return policies.map((policy) => `"${policy.name}";r=`);
}

/**
 * `RateLimit`: each policy's remaining units (`r`) and the seconds until its quota is whole (`t`).
 *
 * @example rateLimitHeader(rateLimitMembers([hourly]), [decision]) // '"hourly";r=19;t=180'
 */
export function rateLimitHeader(members: readonly string[], decisions: readonly Decision[]): string {
  let header = member(members[0]!, decisions[0]!);
  for (let index = 1; index < members.length; index++)
    header += `, ${member(members[index]!, decisions[index]!)}`;
  return header;
}

function member(start: string, decision: Decision): string {
  return `${start}${decision.remaining};t=${seconds(decision.reset)}`;
}

/** Microseconds as whole seconds, rounded up: a client that waits them is never early. */
export function seconds(microseconds: number): number {
  return Math.ceil(microseconds / 1_000_000);
}
