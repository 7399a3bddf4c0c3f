import type { HttpRequest } from "../http/request.ts";
import type { SecurityScheme, SecurityScopes } from "../route/declare/security-scheme.ts";
import { bearerScheme } from "./http-bearer.ts";
import { checkedVerify, documented, type SchemeOptions, type Verified } from "./scheme.ts";

/** Options of the OAuth 2 schemes; their `name` defaults to `"oauth2"`. */
export interface OAuth2Options<P, R extends HttpRequest> extends SchemeOptions<P> {
  /** Where clients get a token (relative to the server, or absolute). */
  tokenUrl: string;
  refreshUrl?: string;
  /** Every scope the API knows, with what it allows: the Authorize dialog lists them. */
  scopes?: Readonly<Record<string, string>>;
  /** The principal of the access token, or null when it is not accepted (a 401). */
  verify(token: string, request: R, scopes: SecurityScopes): Verified<P>;
}

/**
 * OAuth 2 with the password flow: clients trade a user name and password at `tokenUrl` for a
 * bearer token, sent as `Authorization: Bearer <token>`. Declared scopes are checked per endpoint
 * (`p.Security(oauth2, { scopes: ["enroll:write"] })`: 403 without one).
 *
 * @example oauth2Password({ tokenUrl: "/token", scopes: { "enroll:write": "Create students" }, verify })
 */
export function oauth2Password<P, R extends HttpRequest = HttpRequest>(
  options: OAuth2Options<P, R>,
): SecurityScheme<P> {
  return oauth2("password", "oauth2Password", options);
}

/**
 * OAuth 2 with the client-credentials flow: services trade their client id and secret at
 * `tokenUrl` for a bearer token.
 *
 * @example oauth2ClientCredentials({ tokenUrl: "https://auth.example.com/token", scopes, verify })
 */
export function oauth2ClientCredentials<P, R extends HttpRequest = HttpRequest>(
  options: OAuth2Options<P, R>,
): SecurityScheme<P> {
  return oauth2("clientCredentials", "oauth2ClientCredentials", options);
}

function oauth2<P, R extends HttpRequest>(
  flow: "password" | "clientCredentials",
  maker: string,
  options: OAuth2Options<P, R>,
): SecurityScheme<P> {
  if (typeof options.tokenUrl !== "string" || options.tokenUrl === "") {
    throw new TypeError(`${maker}({ tokenUrl }) needs the URL where clients get a token.`);
  }
  const verify = checkedVerify(options.verify, maker);
  const flowObject: Record<string, unknown> = { tokenUrl: options.tokenUrl };
  if (options.refreshUrl !== undefined) flowObject.refreshUrl = options.refreshUrl;
  flowObject.scopes = { ...options.scopes };
  const openapi = documented({ type: "oauth2", flows: { [flow]: flowObject } }, options.description);
  return bearerScheme(options.name ?? "oauth2", openapi, verify, options.scopesOf);
}
