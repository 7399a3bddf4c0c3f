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
  ): Principal | undefined | Promise<Principal | undefined>;
  /** The scopes a verified principal holds, checked against `p.Security(scheme, { scopes })`. */
  scopesOf(principal: Principal): readonly string[];
  /** Type-level only: what `authenticate` verifies to. */
  readonly principal?: Principal;
}
