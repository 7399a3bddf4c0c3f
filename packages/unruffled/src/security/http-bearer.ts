import type { HttpRequest } from "../http/request.ts";
import type { SecurityScheme, SecurityScopes } from "../route/declare/security-scheme.ts";
import { credentialsOf } from "./authorization-header.ts";
import { checkedVerify, documented, type SchemeOptions, securityScheme, type Verified } from "./scheme.ts";

/** Options of `httpBearer`; its `name` defaults to `"bearerAuth"`. */
export interface HttpBearerOptions<P, R extends HttpRequest> extends SchemeOptions<P> {
  /** A hint of the token's format for the document, such as `"JWT"`. */
  bearerFormat?: string;
  /** The principal the token stands for, or null when it is not accepted (a 401). */
  verify(token: string, request: R, scopes: SecurityScopes): Verified<P>;
}

/**
 * HTTP bearer authentication: `Authorization: Bearer <token>`. Without it, or with a token `verify`
 * does not accept: 401 with `WWW-Authenticate: Bearer` (RFC 6750).
 *
 * @example
 * const bearer = httpBearer({ bearerFormat: "JWT", verify: jwtVerifier({ secret, algorithms: ["HS256"] }) });
 * endpoint({ params: { user: p.Security(bearer, { scopes: ["enroll:write"] }) }, ... })
 */
export function httpBearer<P, R extends HttpRequest = HttpRequest>(
  options: HttpBearerOptions<P, R>,
): SecurityScheme<P> {
  const verify = checkedVerify(options.verify, "httpBearer");
  const openapi: Record<string, unknown> = { type: "http", scheme: "bearer" };
  if (options.bearerFormat !== undefined) openapi.bearerFormat = options.bearerFormat;
  return bearerScheme(
    options.name ?? "bearerAuth",
    documented(openapi, options.description),
    verify,
    options.scopesOf,
  );
}

/** A scheme whose credential is a bearer token, whatever the document calls it (OAuth 2, OpenID Connect). */
export function bearerScheme<P, R extends HttpRequest>(
  name: string,
  openapi: Record<string, unknown>,
  verify: (token: string, request: R, scopes: SecurityScopes) => Verified<P>,
  scopesOf: ((principal: P) => readonly string[]) | undefined,
): SecurityScheme<P> {
  return securityScheme<string, P>({
    name,
    openapi,
    challenge: { missing: "Bearer", rejected: 'Bearer error="invalid_token"' },
    messages: {
      missing: "Not authenticated: send the header Authorization: Bearer <token>",
      malformed: "Not authenticated: the Authorization header is not a bearer token",
      rejected: "Invalid bearer token",
    },
    read: (request) => credentialsOf(request, "Bearer"),
    verify: (token, request, scopes) => verify(token, request as R, scopes),
    scopesOf,
  });
}
