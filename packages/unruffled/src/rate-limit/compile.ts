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
  return (policies, principalIndex, label) => {
    const names = new Set<string>();
    for (const policy of policies) {
      if (names.has(policy.name)) {
        throw new ValueError(
          `${label} has two rate-limit policies named "${policy.name}"; give each policy its own name.`,
        );
      }
      names.add(policy.name);
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
