import { ValueError } from "../errors.ts";
import type { RateLimitPolicy } from "./policy.ts";
import { type LimiterContext, RouteLimiter } from "./route-limiter.ts";

/**
 * Compiles a route's policies, once, when the route is built. `principalIndex` is where the route's
 * principal (its first scheme's value) is among its resolved dependencies; -1 when it has no scheme.
 */
export type RateLimitCompiler = (
  policies: readonly RateLimitPolicy[],
  principalIndex: number,
  label: string,
) => RouteLimiter;

/**
 * The compiler of an app's limited routes: the route's policies, the place of its principal among
 * its dependencies, and the store all the routes share.
 */
export function rateLimitCompiler(context: LimiterContext): RateLimitCompiler {
  // The store keys a quota by the policy's name: across the app, one name must be one quota, or
  // two routes would read each other's state with other numbers (and send a negative remainder).
  const quotas = new Map<string, RateLimitPolicy>();
  return (policies, principalIndex, label) => {
    const names = new Set<string>();
    for (const policy of policies) {
      if (names.has(policy.name)) {
        throw new ValueError(
          `${label} has two rate-limit policies named "${policy.name}"; give each policy its own name.`,
        );
      }
      names.add(policy.name);
      const known = quotas.get(policy.name);
      if (known === undefined) quotas.set(policy.name, policy);
      else if (known.limit !== policy.limit || known.window !== policy.window) {
        throw new ValueError(
          `${label} has the rate-limit policy "${policy.name}" of ${policy.limit} per ${policy.window} s, and another route one of ${known.limit} per ${known.window} s: a name is one quota, so give each policy its own name.`,
        );
      }
    }
    return new RouteLimiter(policies, principalIndex, context);
  };
}

/** A group's or a route's `rateLimits`, checked: a list of `rateLimit()` policies. */
export function checkedPolicies(policies: unknown, path: string): readonly RateLimitPolicy[] {
  if (policies === undefined) return [];
  if (
    !Array.isArray(policies) ||
    policies.some((policy) => (policy as RateLimitPolicy | undefined)?.kind !== "rate-limit-policy")
  ) {
    throw new ValueError(`path("${path}"): rateLimits must be a list of rateLimit({ ... }) policies.`);
  }
  return policies;
}
