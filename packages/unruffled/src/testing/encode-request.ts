import type { IncomingHttpHeaders } from "node:http";
import { encodable, type ValuePlace } from "../client/encode-request.ts";
import { validateHeaderName, validateHeaderValue } from "../node-builtins.ts";
import { bytesOf, encodeMultipart, type FilesInput, type FormInput } from "./multipart-body.ts";

type Scalar = string | number | boolean;

/** Query values: a scalar, or a list sent as repeated keys; `undefined` leaves the key out. */
export type QueryInput = Readonly<Record<string, Scalar | readonly Scalar[] | undefined>>;

/**
 * Header values by name: a string, or a list sent as one line a value, as a header repeated on the
 * wire (`{ "x-tag": ["a", "b"] }`); an empty list sends none.
 */
export type RequestHeaders = Readonly<Record<string, string | readonly string[]>>;

/** What every request of the test client may carry. */
export interface RequestOptions {
  query?: QueryInput;
  headers?: RequestHeaders;
  cookies?: Readonly<Record<string, string>>;
}

/** A request with a body: one of `json`, `form` (optionally with `files`), `files`, or raw `body`. */
export interface BodyOptions extends RequestOptions {
  json?: unknown;
  /** An urlencoded form, or the text fields of a multipart body when `files` is given too. */
  form?: FormInput;
  /** Files: the body becomes `multipart/form-data`. */
  files?: FilesInput;
  /** Bytes or text sent as they are; say what they are with a `content-type` header. */
  body?: string | Uint8Array;
}

/**
 * The parts of a request as they go out: target, lower-case headers (a list is one line a value, as
 * Node's client sends it), body bytes.
 */
export interface EncodedRequest {
  url: string;
  headers: Record<string, string | string[]>;
  body: Buffer | undefined;
}

/**
 * Builds the request target, headers and body of one test request, as a client on the wire would.
 *
 * @example encodeRequest("/items", { query: { page: 2 }, json: { a: 1 } }, {}).url // "/items?page=2"
 */
export function encodeRequest(
  path: string,
  options: BodyOptions,
  defaults: RequestOptions,
  method = "GET",
): EncodedRequest {
  // No Host unless the test gives one: each client adds its own after the others, as Node's client does.
  const headers: Record<string, string | string[]> = {};
  for (const source of [defaults.headers, options.headers]) {
    if (source === undefined) continue;
    checkHeadersShape(source);
    for (const [name, value] of Object.entries(source)) {
      const lower = name.toLowerCase();
      // A request's own value, even an empty list, replaces the client's default.
      delete headers[lower];
      const lines: readonly unknown[] = Array.isArray(value) ? value : [value];
      if (!lines.every((line) => typeof line === "string")) {
        throw new TypeError(
          `A test request's header "${name}" is a string or a list of strings, got ${JSON.stringify(value)}.`,
        );
      }
      if (lines.length === 0) continue;
      headers[lower] =
        lines.length === 1 ? fieldValue(lines[0] as string) : (lines as string[]).map(fieldValue);
    }
  }
  for (const name of ONE_LINE_HEADERS) {
    const value = headers[name];
    if (Array.isArray(value)) {
      throw new TypeError(
        `A test request sends one ${name} line, so its value is one string, got ${JSON.stringify(value)}.`,
      );
    }
  }
  // RFC 6265 §5.4: one Cookie line; Node's client joins a list given for it with "; ".
  const given = headers.cookie;
  const cookie = [
    ...(given === undefined ? [] : typeof given === "string" ? [given] : given),
    cookieHeader({ ...defaults.cookies, ...options.cookies }),
  ]
    .filter((part) => part !== "")
    .join("; ");
  if (cookie !== "" || given !== undefined) headers.cookie = cookie;
  // What a socket cannot carry fails here, with the error Node's client throws, in process too.
  for (const [name, value] of Object.entries(headers)) {
    validateHeaderName(name);
    for (const line of typeof value === "string" ? [value] : value) validateHeaderValue(name, line);
  }
  const encoded = encodeBody(options);
  if (encoded !== undefined) {
    if (encoded.contentType !== undefined && headers["content-type"] === undefined) {
      headers["content-type"] = encoded.contentType;
    }
    headers["content-length"] = String(encoded.body.length);
  } else if (!METHODS_WITHOUT_CONTENT.has(method) && headers["content-length"] === undefined) {
    headers["content-length"] = "0";
  }
  return { url: withQuery(path, options.query), headers, body: encoded?.body };
}

/**
 * The headers of an encoded request as Node's server hands them to the app, listening as `listen()`
 * has it (`joinDuplicateHeaders`): a repeated header's lines joined by ", " (a Cookie's by "; "),
 * Set-Cookie always a list.
 *
 * @example receivedHeaders({ "x-tag": ["a", "b"], "set-cookie": "s=1" }) // { "x-tag": "a, b", "set-cookie": ["s=1"] }
 */
export function receivedHeaders(lines: Readonly<Record<string, string | string[]>>): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(lines)) {
    if (name === "set-cookie") headers[name] = typeof value === "string" ? [value] : value.slice();
    else headers[name] = typeof value === "string" ? value : value.join(name === "cookie" ? "; " : ", ");
  }
  return headers;
}

// Headers a request carries once: Node's client takes no list for Host, and Node's parser refuses a
// second Content-Length or Transfer-Encoding line (400), the shape of a request smuggling attempt.
const ONE_LINE_HEADERS = ["host", "content-length", "transfer-encoding"];

/** Headers are an object of names: a list of pairs, or a `Headers`, would be read as no headers or names "0", "1". */
function checkHeadersShape(source: object): void {
  const prototype = Object.getPrototypeOf(source);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new TypeError(
      'A test request\'s headers are an object of names, a repeated one with a list of values: { "x-tag": ["a", "b"] }.',
    );
  }
}

// RFC 9110 §8.6: a POST (PUT, PATCH, …) without content still says Content-Length: 0, as Node's
// client and fetch send it; these methods define no meaning for content and send no length.
const METHODS_WITHOUT_CONTENT = new Set(["GET", "HEAD", "DELETE", "OPTIONS", "TRACE", "CONNECT"]);

function encodeBody(options: BodyOptions): { contentType: string | undefined; body: Buffer } | undefined {
  const given = [options.json !== undefined, options.form !== undefined, options.body !== undefined];
  const hasFiles = options.files !== undefined;
  if (given.filter(Boolean).length > 1 || (hasFiles && (given[0] || given[2]))) {
    throw new TypeError("A test request takes one body: json, form (with or without files), files, or body.");
  }
  if (hasFiles) return encodeMultipart(options.form ?? {}, options.files!);
  if (options.json !== undefined) {
    return { contentType: "application/json", body: Buffer.from(JSON.stringify(options.json)) };
  }
  if (options.form !== undefined) {
    return {
      contentType: "application/x-www-form-urlencoded",
      body: Buffer.from(urlencoded(options.form, "form")),
    };
  }
  if (options.body !== undefined) return { contentType: undefined, body: bytesOf(options.body) };
  return undefined;
}

function withQuery(path: string, query: QueryInput | undefined): string {
  const encoded = query === undefined ? "" : urlencoded(query, "query");
  if (encoded === "") return path;
  return `${path}${path.includes("?") ? "&" : "?"}${encoded}`;
}

function urlencoded(
  values: Readonly<Record<string, Scalar | readonly Scalar[] | undefined>>,
  place: ValuePlace,
): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value])
      search.append(name, encodable(place, name, String(item)));
  }
  return search.toString();
}

// RFC 9110 §5.5: the spaces and tabs around a field value are not part of it; a server's parser drops them.
function fieldValue(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, "");
}

function cookieHeader(cookies: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(cookies)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(encodable("cookie", name, value!))}`)
    .join("; ");
}
