import type { HttpRequest } from "../http/request.ts";
import type { SecurityScheme, SecurityScopes } from "../route/declare/security-scheme.ts";
import { bearerScheme } from "./http-bearer.ts";
import { checkedVerify, documented, type SchemeOptions, type Verified } from "./scheme.ts";

/** Options of `openIdConnect`; its `name` defaults to `"openIdConnect"`. */
export interface OpenIdConnectOptions<P, R extends HttpRequest> extends SchemeOptions<P> {
  /** The provider's discovery document (`…/.well-known/openid-configuration`). */
  openIdConnectUrl: string;
  /** The principal of the ID or access token, or null when it is not accepted (a 401). */
  verify(token: string, request: R, scopes: SecurityScopes): Verified<P>;
}

/**
 * OpenID Connect: a provider issues tokens, sent as `Authorization: Bearer <token>`; verify them
 * with `jwtVerifier({ jwks, issuer, audience })` and the provider's keys.
 *
 * @example openIdConnect({ openIdConnectUrl: "https://id.example.com/.well-known/openid-configuration", verify })
 */
export function openIdConnect<P, R extends HttpRequest = HttpRequest>(
  options: OpenIdConnectOptions<P, R>,
): SecurityScheme<P> {
  if (typeof options.openIdConnectUrl !== "string" || options.openIdConnectUrl === "") {
    throw new TypeError("openIdConnect({ openIdConnectUrl }) needs the provider's discovery URL.");
  }
  const verify = checkedVerify(options.verify, "openIdConnect");
  const openapi = documented(
    { type: "openIdConnect", openIdConnectUrl: options.openIdConnectUrl },
    options.description,
  );
  return bearerScheme(options.name ?? "openIdConnect", openapi, verify, options.scopesOf);
}
