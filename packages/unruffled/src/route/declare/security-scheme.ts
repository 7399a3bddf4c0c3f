import type { HttpRequest } from "../../http/request.ts";

/** The OpenAPI Security Scheme object of a scheme (`type`, `scheme`, `in`, `flows`…). */
export type SecuritySchemeObject = Readonly<Record<string, unknown>>;

/**
 * An authentication scheme as routes see it: how the document names and describes it, and how to
 * find the principal of a request. `unruffled/security` makes them (`httpBearer`, `apiKeyHeader`…);
 * `p.Security(scheme, { scopes })` declares that an endpoint needs one.
 */
export interface SecurityScheme<Principal = unknown> {
  readonly kind: "security-scheme";
  /** Its key in `components.securitySchemes`, unique in an app. */
  readonly name: string;
  readonly openapi: SecuritySchemeObject;
  /**
   * The principal of the request's credentials. Missing or unverified credentials throw an
   * `UnauthorizedError` (401 with the scheme's `WWW-Authenticate`), or give `undefined` when
   * `optional`.
   */
  authenticate(
    request: HttpRequest,
    optional: boolean,
    scopes: SecurityScopes,
  ): Principal | undefined | Promise<Principal | undefined>;
  /** The scopes a verified principal holds, checked against `p.Security(scheme, { scopes })`. */
  scopesOf(principal: Principal): readonly string[];
  /** Type-level only: what `authenticate` verifies to. */
  readonly principal?: Principal;
}

/**
 * The scopes asked for on the way to a scheme or a dependency (FastAPI's `SecurityScopes`): a
 * scheme's `verify` gets every scope the endpoint's uses of it ask for, and a dependency that
 * declares `p.SecurityScopes()` the scopes of the `p.Security(…, { scopes })` uses above it, on its
 * own branch of the dependency tree only. Settled when the route is built.
 *
 * @example if (!scopes.scopes.every((scope) => user.scopes.includes(scope))) throw new ForbiddenError(`needs ${scopes.scopeStr}`);
 */
export class SecurityScopes {
  readonly scopes: readonly string[];
  /** The scopes separated by spaces, as OAuth 2 writes them (`scope="items me"`). */
  readonly scopeStr: string;

  constructor(scopes: readonly string[] = []) {
    this.scopes = Object.freeze([...scopes]);
    this.scopeStr = scopes.join(" ");
    Object.freeze(this);
  }
}
