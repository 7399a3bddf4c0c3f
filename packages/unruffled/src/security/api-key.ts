import type { HttpRequest } from "../http/request.ts";
import type { SecurityScheme, SecurityScopes } from "../route/declare/security-scheme.ts";
import { checkedVerify, documented, type SchemeOptions, securityScheme, type Verified } from "./scheme.ts";

/** Options of the API key schemes; their `name` defaults to `"apiKey"`. */
export interface ApiKeyOptions<P, R extends HttpRequest> extends SchemeOptions<P> {
  /** The principal of the key, or null when it is not accepted (a 401). */
  verify(key: string, request: R, scopes: SecurityScopes): Verified<P>;
}

type Where = "header" | "query" | "cookie";

/**
 * An API key in a header, such as `X-API-Key: <key>`. Compare keys in constant time
 * (`crypto.timingSafeEqual`) in `verify`.
 *
 * @example apiKeyHeader({ header: "X-API-Key", verify: (key) => (key === adminKey ? { admin: true } : null) })
 */
export function apiKeyHeader<P, R extends HttpRequest = HttpRequest>(
  options: ApiKeyOptions<P, R> & { header: string },
): SecurityScheme<P> {
  return apiKey("header", options.header, options, (request, name) => {
    const value = request.headers[name.toLowerCase()];
    return typeof value === "string" ? value : value?.[0];
  });
}

/**
 * An API key in a query parameter, such as `?api_key=<key>`. The access log never writes query
 * strings; proxies may, so prefer a header.
 *
 * @example apiKeyQuery({ query: "api_key", verify: (key) => keys.find(key) })
 */
export function apiKeyQuery<P, R extends HttpRequest = HttpRequest>(
  options: ApiKeyOptions<P, R> & { query: string },
): SecurityScheme<P> {
  return apiKey("query", options.query, options, (request, name) => {
    const value = request.query[name];
    return typeof value === "string" ? value : value?.[value.length - 1];
  });
}

/**
 * An API key in a cookie, such as a session id.
 *
 * @example apiKeyCookie({ cookie: "session", verify: (id) => sessions.get(id) })
 */
export function apiKeyCookie<P, R extends HttpRequest = HttpRequest>(
  options: ApiKeyOptions<P, R> & { cookie: string },
): SecurityScheme<P> {
  return apiKey("cookie", options.cookie, options, (request, name) => request.cookies[name]);
}

function apiKey<P, R extends HttpRequest>(
  where: Where,
  wireName: string,
  options: ApiKeyOptions<P, R>,
  find: (request: HttpRequest, name: string) => string | undefined,
): SecurityScheme<P> {
  const maker = `apiKey${where[0]!.toUpperCase()}${where.slice(1)}`;
  if (typeof wireName !== "string" || wireName === "") {
    throw new TypeError(`${maker}({ ${where} }) needs the name of the ${where} that carries the key.`);
  }
  const verify = checkedVerify(options.verify, maker);
  const place =
    where === "header"
      ? `the ${wireName} header`
      : where === "query"
        ? `the query parameter ${wireName}`
        : `the cookie ${wireName}`;
  return securityScheme<string, P>({
    name: options.name ?? "apiKey",
    openapi: documented({ type: "apiKey", in: where, name: wireName }, options.description),
    challenge: { missing: `APIKey ${where}="${wireName}"`, rejected: `APIKey ${where}="${wireName}"` },
    messages: {
      missing: `Not authenticated: send the API key in ${place}`,
      rejected: "Invalid API key",
    },
    // An empty key is no key: told how to send one, as when it is missing.
    read(request) {
      const key = find(request, wireName);
      return key === undefined || key === "" ? undefined : key;
    },
    verify: (key, request, scopes) => verify(key, request as R, scopes),
    scopesOf: options.scopesOf,
  });
}
