import { type Readable, validateHeaderName, validateHeaderValue } from "../node-builtins.ts";
import { type CookieOptions, serializeCookie } from "./cookies.ts";

export type HeaderValue = string | readonly string[];

export interface ResponseInit {
  status?: number;
  headers?: Record<string, HeaderValue>;
}

/** A `ResponseInit` whose status the type checker reads (`JsonResponse`'s second type parameter). */
export interface StatusInit<S extends number | undefined> {
  status?: S;
  headers?: Record<string, HeaderValue>;
}

/**
 * What the types know of a response's status: the literal of a success status (`201`), `"other"`
 * for a status known only at run time or one that is not a success (its body may match any of the
 * endpoint's JSON models), and `undefined` when none was given (the endpoint's default status applies).
 */
export type StatusKnown<S> = 0 extends 1 & S
  ? any
  : [S] extends [undefined]
    ? undefined
    : IsUnion<S> extends true
      ? "other"
      : number extends S
        ? "other"
        : S extends number
          ? `${S}` extends `2${string}`
            ? S
            : "other"
          : "other";

type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;

export type ResponseBody = string | Uint8Array | Readable | null;

/**
 * A response an endpoint returns. Subclasses set the body format; `headers` keys are lower case.
 *
 * @example new HttpResponse("<svg/>", { headers: { "content-type": "image/svg+xml" } })
 */
export class HttpResponse {
  status: number;
  /**
   * True when the constructor was given no status: while the status is still that default 200, an
   * endpoint that declares one success status (`p.ResponseSpec({ code: "201", … })`) answers with it.
   */
  statusDefaulted: boolean;
  readonly headers: Record<string, HeaderValue>;
  /** The body as given, or as a subclass made it (`JsonResponse` writes its own when first asked). */
  protected content: ResponseBody;
  /**
   * Fields the access log adds to this answer's record, after its own (which they never replace):
   * an app's outcome code inside a 200 envelope, say. Unset on most answers, which then cost nothing.
   *
   * @example response.logFields = { code: 409 };
   */
  declare logFields?: Readonly<Record<string, unknown>>;

  constructor(body: ResponseBody, init?: ResponseInit, contentType?: string) {
    this.content = body;
    this.statusDefaulted = init?.status === undefined;
    this.status = this.statusDefaulted ? 200 : checkedStatus(init!.status!);
    this.headers = init?.headers ? checkedHeaders(init.headers) : {};
    if (contentType !== undefined && this.headers["content-type"] === undefined) {
      this.headers["content-type"] = contentType;
    }
  }

  /** The bytes, text or stream sent as the body; `null` for none. */
  get body(): ResponseBody {
    return this.content;
  }

  /** Adds a `Set-Cookie` header. */
  setCookie(name: string, value: string, options?: CookieOptions): this {
    const cookie = serializeCookie(name, value, options);
    const existing = this.headers["set-cookie"];
    if (existing === undefined) this.headers["set-cookie"] = [cookie];
    else
      this.headers["set-cookie"] = typeof existing === "string" ? [existing, cookie] : [...existing, cookie];
    return this;
  }

  /** Tells the browser to drop a cookie (same path and domain as when it was set). */
  deleteCookie(name: string, options: Pick<CookieOptions, "path" | "domain"> = {}): this {
    return this.setCookie(name, "", { ...options, maxAge: 0, expires: new Date(0) });
  }
}

/**
 * The class behind `JsonResponse` (use `JsonResponse`, which is this class, typed with the status
 * its constructor was given).
 */
export class JsonResponseBase<T = unknown> extends HttpResponse {
  /** The value before serialisation, as the handler gave it, for tests and middleware that inspect it. */
  readonly data: T;

  constructor(data: T, init?: ResponseInit) {
    // Serialised later, once: by the route's model when it declares one, else by JSON.stringify.
    super(null, init, "application/json");
    this.data = data;
  }

  /** The JSON text: written through the route's model when the app answered with it, else `JSON.stringify`. */
  override get body(): string {
    return (this.content as string | null) ?? this.serialize();
  }

  /**
   * Writes the body now, with `serializer` (the app passes the route's compiled model) or
   * `JSON.stringify`; what either throws (a BigInt, a cycle, a body the model refuses) is thrown here.
   *
   * @example new JsonResponse({ a: 1, b: 2 }).serialize((data) => JSON.stringify({ a: data.a })) // '{"a":1}'
   */
  serialize(serializer?: (data: T) => string): string {
    const text = serializer === undefined ? (JSON.stringify(this.data) ?? "null") : serializer(this.data);
    this.content = text;
    return text;
  }

  /**
   * A response whose body the type checker does not compare with the endpoint's models: the escape
   * hatch for values typed elsewhere (`any` from an untyped library). At run time the body still goes
   * through the model of its status, like any other.
   *
   * @example return JsonResponse.unchecked(rowsFromLegacyModule);
   */
  static unchecked(data: unknown, init?: ResponseInit): JsonResponse<any, any> {
    return new JsonResponseBase<any>(data, init) as JsonResponse<any, any>;
  }
}
// Error messages and logs name it as users write it.
Object.defineProperty(JsonResponseBase, "name", { value: "JsonResponse" });

/**
 * A `JsonResponse` with a body of type `T` and a status the types know as `Status` (`StatusKnown`):
 * what `new JsonResponse(...)` makes, and what a handler's declared answers are. One generic type for
 * both, so that the checker compares an answer with a declared one by their type arguments, and
 * infers the body's contextual type from the declared one's, instead of member by member.
 */
export interface JsonAnswer<T, Status> extends JsonResponseBase<T> {
  /** Type-level only (never set): what the types know of the status given (`StatusKnown`). */
  readonly "~status": Status;
}

/**
 * A JSON response from any JSON-serialisable value. `T` is the body's type and `S` the status its
 * constructor was given (`undefined`: none): an endpoint that declares `ResponseSpec` models only
 * compiles when `T` matches the model of that status, and at run time the body is written through
 * the model of its status, so fields the model does not declare are never sent. Written without
 * type arguments, `JsonResponse` is any JSON response (`JsonResponse<unknown, any>`); a subclass
 * that takes a status names it: `class Paged extends JsonResponse<Page, number>`.
 *
 * @example new JsonResponse({ code: 0, message: "success", data: [] })
 */
export type JsonResponse<T = unknown, S = any> = JsonAnswer<T, StatusKnown<S>>;

/** `JsonResponse`'s constructor: it reads the status given as a literal type. */
export interface JsonResponseConstructor {
  // NoInfer: the status comes from `init` alone (else its default), never from the answer a handler declares.
  new <T, const S extends number | undefined = undefined>(
    data: T,
    init?: StatusInit<S>,
  ): JsonAnswer<T, StatusKnown<NoInfer<S>>>;
  readonly prototype: JsonResponse<unknown, any>;
  unchecked(data: unknown, init?: ResponseInit): JsonResponse<any, any>;
}

export const JsonResponse = JsonResponseBase as unknown as JsonResponseConstructor;

/**
 * A `text/plain; charset=utf-8` response.
 *
 * @example new PlainTextResponse("Hello, World!")
 */
export class PlainTextResponse extends HttpResponse {
  /** Type-level only (never set): tells a text answer from other responses of the same shape. */
  declare readonly "~media": "text/plain";

  constructor(text: string, init?: ResponseInit) {
    super(text, init, "text/plain; charset=utf-8");
  }
}

/** A `text/html; charset=utf-8` response. */
export class HtmlResponse extends HttpResponse {
  /** Type-level only (never set): tells an HTML answer from other responses of the same shape. */
  declare readonly "~media": "text/html";

  constructor(html: string, init?: ResponseInit) {
    super(html, init, "text/html; charset=utf-8");
  }
}

/** A 204 or a 304: answers that carry no body and no framing of one (no Content-Length of 0). */
export function statusHasNoBody(status: number): boolean {
  return status === 204 || status === 304;
}

/**
 * A status a final answer may carry: an integer from 200 to 599. A 1xx is informational (a client
 * would go on waiting for the answer), and `fetch`'s `Response` refuses anything outside 200–599.
 */
export function checkedStatus(status: number): number {
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RangeError(`A response status must be an integer from 200 to 599, got ${status}`);
  }
  return status;
}

/**
 * The headers a response was built with, names in lower case. A name or value Node would refuse to
 * write (a line break from a reflected request value) fails here, inside the handler, where the
 * exception handlers answer it, instead of when the answer is written.
 */
function checkedHeaders(headers: Record<string, HeaderValue>): Record<string, HeaderValue> {
  checkHeaders(headers);
  const result: Record<string, HeaderValue> = {};
  for (const key of Object.keys(headers)) result[key.toLowerCase()] = headers[key]!;
  return result;
}

/**
 * Throws Node's error (`ERR_INVALID_HTTP_TOKEN`, `ERR_INVALID_CHAR`) for a header name or value that
 * Node would refuse to write, and that a web `Headers` would refuse too.
 */
export function checkHeaders(headers: Record<string, HeaderValue>): void {
  // for-in rather than Object.keys(): no array made for every answer (the fetch path checks each one).
  for (const key in headers) {
    if (!Object.hasOwn(headers, key)) continue;
    const value = headers[key]!;
    const known = checkedNames.get(key);
    if (known === undefined) validateHeaderName(key);
    // Node's own test, inlined: its validator is called (to throw its error) only for a bad value.
    // Testing a value costs more than all the rest here (on Bun, a few per cent of a small answer):
    // the value a name first came with (the media type of most answers) is not tested again.
    if (typeof value !== "string") for (const item of value) validateHeaderValue(key, item);
    else if (value !== known && INVALID_VALUE_CHAR.test(value)) {
      validateHeaderValue(key, value);
    }
    if (known === undefined && checkedNames.size < MAX_CHECKED_NAMES) {
      checkedNames.set(key, typeof value === "string" && value.length <= MAX_KNOWN_VALUE ? value : "");
    }
  }
}

// Node's rule for a header value: tab, visible ASCII, and obs-text.
const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
// The same few names come back on every answer (content-type, x-request-id): each is checked once,
// and kept with the first value it came with (a short one), then known to be valid. Bounded, since
// an app may make names of what clients send.
const checkedNames = new Map<string, string>();
const MAX_CHECKED_NAMES = 512;
const MAX_KNOWN_VALUE = 128;
