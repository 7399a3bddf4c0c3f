import type { IncomingHttpHeaders } from "node:http";

/**
 * A web request's `Headers`, which a request of the fetch path keeps as they are until something
 * reads `request.headers`: on Bun, making the object of every header costs a few per cent of a small
 * answer, and most answers need one or two headers (the request id, the body's media type), which
 * `get` reads alone.
 */
export type WebHeaders = Headers & { toJSON?: () => Record<string, string | string[]> };

/** True for a web `Headers` (a Node headers object holds strings, never a `get` function). */
export function isWebHeaders(headers: IncomingHttpHeaders | WebHeaders): headers is WebHeaders {
  return typeof (headers as WebHeaders).get === "function";
}

/**
 * The headers as a plain object of lower-case names: Bun gives it natively (`toJSON`), else one loop.
 *
 * @example headersObjectOf(new Headers({ "X-A": "1" })) // { "x-a": "1" }
 */
export function headersObjectOf(webHeaders: WebHeaders): IncomingHttpHeaders {
  if (webHeaders.toJSON !== undefined) return webHeaders.toJSON();
  const headers: Record<string, string> = {};
  webHeaders.forEach((value, key) => {
    headers[key] = value;
  });
  return headers;
}
