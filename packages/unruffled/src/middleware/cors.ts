import { HttpError, ValueError } from "../errors.ts";
import type { Middleware, MiddlewareRoute, Next } from "../http/middleware.ts";
import type { HttpRequest } from "../http/request.ts";
import { type HeaderValue, HttpResponse } from "../http/response.ts";
import { type CorsOrigins, type OriginCheck, originCheck } from "./cors-origins.ts";
import { addVary } from "./vary.ts";

export type { CorsOrigins } from "./cors-origins.ts";

export interface CorsOptions {
  /**
   * Who may call from a browser page: `["https://app.example.com"]` (exact origins, or RegExps),
   * a function `(origin, request) => boolean` (possibly async), or `"*"` for any page.
   */
  origins: CorsOrigins;
  /** Pages may send cookies and `Authorization` (`Access-Control-Allow-Credentials: true`); not with `"*"`. */
  credentials?: boolean;
  /**
   * The request headers a page may send beyond the safelisted ones (`Accept`, `Accept-Language`,
   * `Content-Language`, `Content-Type`, always allowed). Default: whichever a preflight asks for.
   */
  allowHeaders?: readonly string[];
  /** The response headers a page's script may read beyond the safelisted ones (`x-request-id`). */
  exposeHeaders?: readonly string[];
  /** Seconds a browser may keep a preflight's answer (default 600). */
  maxAge?: number;
}

// A header name (RFC 9110's token); what a preflight asks for must be a list of them.
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;
const SAFELISTED_HEADERS = ["accept", "accept-language", "content-language", "content-type"];
/** The longest `Access-Control-Request-Headers` answered: some hundred names, far beyond any page's. */
const MAX_REQUESTED_HEADERS_LENGTH = 4096;

/** The options, checked and turned into header values, once. */
interface CorsPolicy {
  wildcard: boolean;
  allows: OriginCheck;
  /** The answer depends on `Origin`: `Vary: Origin` on every answer. */
  varies: boolean;
  credentials: boolean;
  /** Lower case; undefined: a preflight's requested headers are allowed as asked. */
  allowHeaders: ReadonlySet<string> | undefined;
  /** The allowed headers as one header value, when they are a list. */
  allowHeadersValue: string | undefined;
  exposeHeaders: string | undefined;
  maxAge: string | undefined;
}

/**
 * Cross-origin requests from browser pages (the Fetch standard's CORS protocol). An allowed origin
 * gets `Access-Control-Allow-Origin` (and credentials, exposed headers) on every answer, errors
 * included; a preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered 204 for every
 * path that has a route, with that path's methods, without reaching the endpoint. A refused origin
 * gets no CORS header, and its preflight a 400 that says why (an `HttpError`, answered in the app's
 * error format). With a list or a function, every
 * answer carries `Vary: Origin`. On a path no route serves, a preflight passes on to the 404.
 *
 * @example createApp({ routes, middleware: [cors({ origins: ["https://app.example.com"], credentials: true })] })
 */
export function cors(options: CorsOptions): Middleware {
  const policy = corsPolicy(options);
  const middleware = corsAt(policy, { path: undefined, methods: [] });
  middleware.forRoute = (route) => corsAt(policy, route);
  return middleware;
}

/** The middleware for one route: its preflights allow the methods of its path. */
function corsAt(policy: CorsPolicy, route: MiddlewareRoute): Middleware {
  const methods = route.methods;
  const allowMethods = methods.join(", ");

  const preflight = (request: HttpRequest, origin: string, allowed: boolean): HttpResponse => {
    if (!allowed) return refusal(policy, "the origin is not allowed");
    const method = request.headers["access-control-request-method"] as string;
    if (!methods.includes(method))
      return refusal(policy, `the method is not allowed here; allowed: ${allowMethods}`);
    const requested = request.headers["access-control-request-headers"];
    const names = requested === undefined ? [] : requestedHeaders(requested);
    if (names === undefined)
      return refusal(policy, "Access-Control-Request-Headers is not a short list of header names");
    const allowHeaders = policy.allowHeaders;
    if (allowHeaders !== undefined && !names.every((name) => allowHeaders.has(name))) {
      return refusal(policy, `a requested header is not allowed; allowed: ${[...allowHeaders].join(", ")}`);
    }
    const response = new HttpResponse(null, { status: 204 });
    const headers = response.headers;
    headers["access-control-allow-origin"] = policy.wildcard ? "*" : origin;
    headers["access-control-allow-methods"] = allowMethods;
    const allowedHeaders = policy.allowHeadersValue ?? names.join(", ");
    if (allowedHeaders !== "") headers["access-control-allow-headers"] = allowedHeaders;
    if (policy.maxAge !== undefined) headers["access-control-max-age"] = policy.maxAge;
    if (policy.credentials) headers["access-control-allow-credentials"] = "true";
    if (policy.varies) addVary(headers, "Origin");
    if (allowHeaders === undefined) addVary(headers, "Access-Control-Request-Headers");
    return response;
  };

  const answer = (request: HttpRequest, next: Next, origin: string, allowed: boolean) => {
    const isPreflight =
      request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined;
    if (isPreflight && methods.length > 0) return preflight(request, origin, allowed);
    return withCorsHeaders(policy, next(request), allowed ? origin : undefined);
  };

  return function cors(request, next) {
    const origin = request.headers.origin;
    if (origin === undefined) return withCorsHeaders(policy, next(request), undefined);
    const allowed = policy.allows(origin, request);
    if (allowed instanceof Promise) return allowed.then((ok) => answer(request, next, origin, ok === true));
    return answer(request, next, origin, allowed);
  };
}

/**
 * An answer with the CORS headers for an allowed origin, set over any already there (a credentials
 * or expose header cors() was not given removed), and none for a refused one (or no `Origin`): those present are removed, so that a response object a handler
 * shares across requests never carries an allowed origin's headers to another. Vary once.
 */
function withCorsHeaders(
  policy: CorsPolicy,
  response: HttpResponse | Promise<HttpResponse>,
  origin: string | undefined,
): HttpResponse | Promise<HttpResponse> {
  if (response instanceof Promise)
    return response.then((resolved) => withCorsHeaders(policy, resolved, origin));
  const headers = response.headers;
  if (policy.varies) addVary(headers, "Origin");
  if (policy.wildcard) headers["access-control-allow-origin"] = "*";
  else if (origin !== undefined) headers["access-control-allow-origin"] = origin;
  else {
    withoutCorsHeaders(headers);
    return response;
  }
  // cors() alone grants: a credentials or expose header it was not given goes, whoever set it.
  if (policy.credentials) headers["access-control-allow-credentials"] = "true";
  else if (headers["access-control-allow-credentials"] !== undefined)
    delete headers["access-control-allow-credentials"];
  if (policy.exposeHeaders !== undefined) headers["access-control-expose-headers"] = policy.exposeHeaders;
  else if (headers["access-control-expose-headers"] !== undefined)
    delete headers["access-control-expose-headers"];
  return response;
}

/** Removes the headers that grant an origin access; checked first, since `delete` slows the object down. */
function withoutCorsHeaders(headers: Record<string, HeaderValue>): void {
  if (headers["access-control-allow-origin"] !== undefined) delete headers["access-control-allow-origin"];
  if (headers["access-control-allow-credentials"] !== undefined)
    delete headers["access-control-allow-credentials"];
  if (headers["access-control-expose-headers"] !== undefined) delete headers["access-control-expose-headers"];
}

/** A refused preflight: 400 with the reason, and no CORS header, so the browser stops there. */
function refusal(policy: CorsPolicy, reason: string): never {
  // Answered by the app's exception handlers, as the framework's other errors are: in its format.
  throw new HttpError(400, `CORS preflight refused: ${reason}.`, policy.varies ? { vary: "Origin" } : {});
}

/** The header names a preflight asks for, lower case; undefined when that is no short list of names. */
function requestedHeaders(text: string | string[]): string[] | undefined {
  const joined = typeof text === "string" ? text : text.join(",");
  if (joined.length > MAX_REQUESTED_HEADERS_LENGTH) return undefined;
  const names: string[] = [];
  for (const part of joined.split(",")) {
    const name = part.trim().toLowerCase();
    if (name === "") continue;
    if (!TOKEN.test(name)) return undefined;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

function corsPolicy(options: CorsOptions): CorsPolicy {
  if (typeof options !== "object" || options === null || options.origins === undefined) {
    throw new ValueError(
      'cors() needs its origins: cors({ origins: ["https://app.example.com"] }), or "*" for any.',
    );
  }
  const wildcard = options.origins === "*";
  const credentials = options.credentials === true;
  if (wildcard && credentials) {
    throw new ValueError(
      'cors(): origins "*" cannot go with credentials (browsers refuse it); list the origins, or pass a function.',
    );
  }
  const maxAge = options.maxAge ?? 600;
  if (!Number.isInteger(maxAge) || maxAge < 0) {
    throw new ValueError(`cors(): maxAge must be a whole number of seconds, got ${maxAge}.`);
  }
  const allowHeaders =
    options.allowHeaders === undefined ? undefined : headerList(options.allowHeaders, "allowHeaders");
  const exposeHeaders =
    options.exposeHeaders === undefined ? undefined : headerList(options.exposeHeaders, "exposeHeaders");
  const allowed = allowHeaders === undefined ? undefined : new Set([...SAFELISTED_HEADERS, ...allowHeaders]);
  return {
    wildcard,
    allows: wildcard ? () => true : originCheck(options.origins as Exclude<CorsOrigins, "*">),
    varies: !wildcard && !(Array.isArray(options.origins) && options.origins.length === 0),
    credentials,
    allowHeaders: allowed,
    allowHeadersValue: allowed === undefined ? undefined : [...allowed].join(", "),
    exposeHeaders:
      exposeHeaders === undefined || exposeHeaders.length === 0 ? undefined : exposeHeaders.join(", "),
    maxAge: String(maxAge),
  };
}

function headerList(names: unknown, option: string): string[] {
  if (!Array.isArray(names) || !names.every((name) => typeof name === "string" && TOKEN.test(name))) {
    throw new ValueError(`cors(): ${option} must be a list of header names such as ["x-request-id"].`);
  }
  return names.map((name: string) => name.toLowerCase());
}
