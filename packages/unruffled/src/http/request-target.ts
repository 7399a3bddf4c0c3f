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
