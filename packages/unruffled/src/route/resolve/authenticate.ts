import { ForbiddenError } from "../../errors.ts";
import type { HttpRequest } from "../../http/request.ts";
import type { SecurityRequirement } from "../description.ts";

/**
 * The principal of a request for one scheme the endpoint needs: the scheme verifies the credentials
 * (401 when they are missing or wrong, unless optional), then every scope asked for must be held
 * (403 naming the missing ones).
 *
 * @example await authenticate({ scheme: bearer, scopes: ["enroll:write"], optional: false }, request)
 */
export function authenticate(requirement: SecurityRequirement, request: HttpRequest): unknown {
  const principal = requirement.scheme.authenticate(request, requirement.optional, requirement.granted);
  if (principal instanceof Promise) return principal.then((verified) => withScopes(requirement, verified));
  return withScopes(requirement, principal);
}

function withScopes(requirement: SecurityRequirement, principal: unknown): unknown {
  if (principal === undefined || requirement.scopes.length === 0) return principal;
  const held = requirement.scheme.scopesOf(principal);
  const missing = requirement.scopes.filter((scope) => !held.includes(scope));
  if (missing.length > 0) {
    throw new ForbiddenError(
      `Not enough permissions: the ${missing.length === 1 ? "scope" : "scopes"} ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} required`,
    );
  }
  return principal;
}
