import type { HttpRequest } from "../http/request.ts";
import type { SecurityScheme } from "../route/security-scheme.ts";
import { bearerScheme } from "./http-bearer.ts";
import { checkedVerify, type Verified } from "./scheme.ts";

export interface OpenIdConnectOptions<P, R extends HttpRequest> {
  /** Its key in `components.securitySchemes` (default `"openIdConnect"`). */
  name?: string;
  /** The provider's discovery document (`…/.well-known/openid-configuration`). */
  openIdConnectUrl: string;
  description?: string;
  /** The principal of the ID or access token, or null when it is not accepted (a 401). */
  verify(token: string, request: R): Verified<P>;
  /** The scopes a principal holds (default: its `scope`, `scp` or `scopes` claim). */
  scopesOf?: (principal: P) => readonly string[];
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
  const openapi: Record<string, unknown> = {
    type: "openIdConnect",
    openIdConnectUrl: options.openIdConnectUrl,
  };
  if (options.description !== undefined) openapi.description = options.description;
  return bearerScheme(options.name ?? "openIdConnect", openapi, verify, options.scopesOf);
}
