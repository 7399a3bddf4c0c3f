import { validateHeaderValue } from "../node-builtins.ts";
import { HttpResponse, type ResponseInit } from "./response.ts";

/** The status a `RedirectResponse` takes when given none: 307 keeps the method and body, as Starlette's. */
export const DEFAULT_REDIRECT_STATUS = 307;

/**
 * A redirect: `Location` set to `url`, percent-encoded where it needs to be (a space, a non-ASCII
 * character) and left as it is where it is already encoded, and no body (`Content-Length: 0`).
 * The status is a 3xx, 307 unless told otherwise; `returns: RedirectResponse` documents the 307
 * with its `Location` header.
 *
 * @example
 * handler: () => new RedirectResponse("/courses/42", { status: 303 }),
 */
export class RedirectResponse extends HttpResponse {
  constructor(url: string | URL, init: ResponseInit = {}) {
    const status = init.status ?? DEFAULT_REDIRECT_STATUS;
    if (!Number.isInteger(status) || status < 300 || status > 399) {
      throw new RangeError(`A redirect's status must be an integer from 300 to 399, got ${status}`);
    }
    super(null, { status, headers: { ...init.headers, location: encodedLocation(String(url)) } });
  }
}

/**
 * `url` with every byte outside the URL characters percent-encoded, as UTF-8: `%` itself is kept, so
 * that an encoded URL goes out unchanged. A control character (a line break from a reflected value)
 * is refused with Node's error for a header value, as in any other header, instead of encoded away.
 */
function encodedLocation(url: string): string {
  if (CONTROL.test(url)) validateHeaderValue("location", url);
  if (!NEEDS_ENCODING.test(url)) return url;
  let encoded = "";
  for (const byte of new TextEncoder().encode(url)) {
    encoded +=
      KEPT[byte] === 1 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return encoded;
}

// Starlette's safe set (its `quote` keeps letters, digits and `_.-~` as well).
const KEPT_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~:/%#?=@[]!$&'()*+,;";
const KEPT = new Uint8Array(256);
for (const char of KEPT_CHARS) KEPT[char.charCodeAt(0)] = 1;
const NEEDS_ENCODING = /[^A-Za-z0-9_.\-~:/%#?=@[\]!$&'()*+,;]/;
// A control character other than a tab: what Node refuses in a header value below U+0080.
const CONTROL = /[^\t\x20-\x7e\x80-\uffff]/;

/**
 * The status a response class in `returns` documents: a `RedirectResponse`'s default 307, every
 * other class's 200.
 */
export function statusOfClass(responseClass: Function): number {
  return responseClass === RedirectResponse || responseClass.prototype instanceof RedirectResponse
    ? DEFAULT_REDIRECT_STATUS
    : 200;
}
