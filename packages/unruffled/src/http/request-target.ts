/**
 * Where a request's target comes from when the adapter has not read it: a web `Request`, whose
 * absolute `url` a runtime may make as a new string on every read (Bun does). A request routed by
 * the runtime's own server (`Bun.serve`'s routes) reads it only if something asks for the URL, the
 * path or the query string.
 */
export interface UrlSource {
  readonly url: string;
}

/**
 * The request target (path and query, as sent) of an absolute URL: the runtime parsed and
 * normalised it already, so the target is what follows the authority.
 *
 * @example targetOf("http://localhost:8000/items?page=2") // "/items?page=2"
 */
export function targetOf(url: string): string {
  const authority = url.indexOf("//");
  const pathStart = url.indexOf("/", authority < 0 ? 0 : authority + 2);
  return pathStart < 0 ? "/" : url.slice(pathStart);
}

/**
 * The origin form (path and query) of a request target as the client sent it. A target in absolute
 * form (`GET http://host/items?page=2`, what a client sends to a proxy) is read as its path and
 * query, since a server must accept that form (RFC 9112 §3.2.2) and routes by the path; "/" when it
 * names no path. Any other target (origin form, `*`, an authority, a URI of another scheme) is
 * returned as it is.
 *
 * @example originFormOf("http://localhost:8000/items?page=2") // "/items?page=2"
 */
export function originFormOf(target: string): string {
  if (target.charCodeAt(0) === SLASH || !ABSOLUTE_FORM.test(target)) return target;
  const pathStart = target.indexOf("/", target.indexOf("//") + 2);
  const queryStart = target.indexOf("?");
  if (pathStart >= 0 && (queryStart < 0 || pathStart < queryStart)) return target.slice(pathStart);
  return queryStart < 0 ? "/" : `/${target.slice(queryStart)}`;
}

/**
 * The authority (`host[:port]`) of a target in absolute form, which a server uses instead of the
 * `Host` header (RFC 9112 §3.2.2); undefined for a target of any other form.
 *
 * @example authorityOf("http://example.com:8080/items?page=2") // "example.com:8080"
 */
export function authorityOf(target: string): string | undefined {
  if (target.charCodeAt(0) === SLASH || !ABSOLUTE_FORM.test(target)) return undefined;
  const start = target.indexOf("//") + 2;
  const end = target.slice(start).search(/[/?#]/);
  return end < 0 ? target.slice(start) : target.slice(start, start + end);
}

const SLASH = 47;
// An http or https URI with an authority: the targets an HTTP server serves (any other scheme, such
// as `ftp://host/x`, names no resource of this server and is left to the router's 404).
const ABSOLUTE_FORM = /^https?:\/\//i;

/**
 * The query string (without `?`) of an absolute URL, read from it straight: a request whose runtime
 * routed it reads its query without making its target or path strings first.
 *
 * @example queryOf("http://localhost:8000/items?page=2") // "page=2"
 */
export function queryOf(url: string): string {
  const authority = url.indexOf("//");
  const pathStart = url.indexOf("/", authority < 0 ? 0 : authority + 2);
  if (pathStart < 0) return "";
  const queryStart = url.indexOf("?", pathStart);
  return queryStart < 0 ? "" : url.slice(queryStart + 1);
}
