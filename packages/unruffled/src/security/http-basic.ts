import type { HttpRequest } from "../http/request.ts";
import type { SecurityScheme, SecurityScopes } from "../route/declare/security-scheme.ts";
import { credentialsOf } from "./authorization-header.ts";
import {
  checkedVerify,
  documented,
  MALFORMED,
  type SchemeOptions,
  securityScheme,
  type Verified,
} from "./scheme.ts";

/** A user name and password, as HTTP basic authentication sends them. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/** Options of `httpBasic`; its `name` defaults to `"basicAuth"`. */
export interface HttpBasicOptions<P, R extends HttpRequest> extends SchemeOptions<P> {
  /** The realm named in the `WWW-Authenticate` challenge (default `"api"`). */
  realm?: string;
  /** The principal of the user name and password, or null when they are wrong (a 401). */
  verify(credentials: BasicCredentials, request: R, scopes: SecurityScopes): Verified<P>;
}

/**
 * HTTP basic authentication: `Authorization: Basic base64(user:password)`, refused with 401 and
 * `WWW-Authenticate: Basic realm="…", charset="UTF-8"` (RFC 7617). Compare passwords in constant
 * time (`crypto.timingSafeEqual`) in `verify`.
 *
 * @example httpBasic({ realm: "admin", verify: ({ username, password }) => users.check(username, password) })
 */
export function httpBasic<P, R extends HttpRequest = HttpRequest>(
  options: HttpBasicOptions<P, R>,
): SecurityScheme<P> {
  const verify = checkedVerify(options.verify, "httpBasic");
  const realm = (options.realm ?? "api").replace(/["\\]/g, "");
  const challenge = `Basic realm="${realm}", charset="UTF-8"`;
  return securityScheme<BasicCredentials, P>({
    name: options.name ?? "basicAuth",
    openapi: documented({ type: "http", scheme: "basic" }, options.description),
    challenge: { missing: challenge, rejected: challenge },
    messages: {
      missing: "Not authenticated: send the header Authorization: Basic <credentials>",
      malformed: "Not authenticated: the Authorization header does not hold basic credentials",
      rejected: "Invalid user name or password",
    },
    read(request) {
      const encoded = credentialsOf(request, "Basic");
      return typeof encoded === "string" ? decodeBasic(encoded) : encoded;
    },
    verify: (credentials, request, scopes) => verify(credentials, request as R, scopes),
    scopesOf: options.scopesOf,
  });
}

/** `dXNlcjpwYXNz` → `{ username: "user", password: "pass" }`; MALFORMED for anything else. */
function decodeBasic(encoded: string): BasicCredentials | typeof MALFORMED {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return MALFORMED;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0 || decoded.includes("\uFFFD")) return MALFORMED;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
