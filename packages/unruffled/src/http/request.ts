import type { IncomingHttpHeaders } from "node:http";
import type { ParsedUrlQuery } from "node:querystring";
import { type Client, type ClientSocket, resolveClient } from "../client-address/resolve-client.ts";
import { requestRootPath } from "../client-address/root-path.ts";
import type { TrustedProxies } from "../client-address/trusted-proxies.ts";
import { MalformedBodyError, NoMatchFound, PayloadTooLargeError } from "../errors.ts";
import { parseQueryString } from "../node-builtins.ts";
import type { BodyCallback, BodySource, TextCallback } from "./body.ts";
import { type BodyLimits, DEFAULT_BODY_LIMITS } from "./body-limits.ts";
import { abortWhenClientGoes, type ClientConnection } from "./client-signal.ts";
import { parseCookies } from "./cookies.ts";
import { jsonNestsDeeperThan } from "./json-depth.ts";
import {
  absoluteFormAuthority,
  authorityOf,
  originFormOf,
  queryOf,
  targetOf,
  type UrlSource,
} from "./request-target.ts";
import { headersObjectOf, isWebHeaders, type WebHeaders } from "./web-headers.ts";

// Node's querystring with no cap on the number of keys (its default is 1,000).
const ALL_KEYS = { maxKeys: 0 };

/** What an adapter (Node `http`, web `fetch`) hands to the app for one request. */
export interface RawRequest {
  method: string;
  /**
   * The request target as sent: path and query string, still percent-encoded; or the web request
   * whose absolute URL holds it, read on first use (a route `Bun.serve` matched itself).
   */
  url: string | UrlSource;
  /** Header names in lower case; or a web request's `Headers`, made into that object on first use. */
  headers: IncomingHttpHeaders | WebHeaders;
  /** The connection, read lazily for the client address (a Node socket, or undefined). */
  socket: ClientSocket | undefined;
  /** The body's source; or what makes it when the body is first read (a GET's is never made). */
  body: BodySource | DeferredBody;
  limits: BodyLimits;
  /** What tells that the client went away (the Node response, a web signal), for `request.signal`. */
  connection?: ClientConnection | undefined;
  /** The proxies whose forwarding headers `request.client` believes (the app's `PROXIES`). */
  proxies?: TrustedProxies | undefined;
  /** The app's routes by name, for `request.urlFor`. */
  urls?: RoutePaths | undefined;
}

/**
 * What makes a request's body source when the body is first read: an adapter that would build one
 * for every request (the fetch path's) saves the object for the many that read none.
 */
export interface DeferredBody {
  deferredBody(): BodySource;
}

/** The values of a route's placeholders, by name: `{ student_id: 42 }`. */
export type PathValues = Readonly<Record<string, string | number>>;

/** The paths of an app's routes by name (the app's route table holds them): what `request.urlFor` reads. */
export interface RoutePaths {
  pathFor(name: string, values?: PathValues): string;
  /** The app's `ROOT_PATH`: where a proxy mounts it; "" for none. */
  readonly rootPath: string;
}

// Most routes have no placeholders: one frozen object for all of their requests.
const NO_PATH_PARAMS: Record<string, string> = Object.freeze({});

/** What `request.client` gives: see `Client`. */
export type ClientAddress = Client;

/** Work queued with `request.afterResponse()`: it runs once the answer has been written. */
export type AfterResponseTask = () => void | Promise<void>;

/**
 * The request as an endpoint sees it. Parsing is lazy: the query string, cookies and body are read
 * only when someone asks. An app may subclass it and pass the class to `createApp({ requestClass })`.
 *
 * @example
 * handler(request) {
 *   const agent = request.headers["user-agent"];
 *   const data = await request.json();
 * }
 */
export class HttpRequest {
  readonly method: string;
  /** Values of the route's `{name}` placeholders, percent-decoded (a shared empty object without any). */
  pathParams: Record<string, string> = NO_PATH_PARAMS;
  /** The request id: the client's `x-request-id` when acceptable, else one the app made; echoed and logged. */
  id = "";
  /** The tasks queued with `afterResponse()`, in order; undefined until one is (the app runs them). */
  afterResponseTasks: AfterResponseTask[] | undefined = undefined;
  readonly limits: BodyLimits;
  private readonly urlSource: string | UrlSource;
  private headerObject: IncomingHttpHeaders | undefined;
  private readonly webHeaders: WebHeaders | undefined;
  private target: string | undefined;
  private absolute: string | undefined;
  private pathPart: string | undefined;
  private queryPart: string | undefined;
  private readonly socket: RawRequest["socket"];
  private readonly connection: ClientConnection | undefined;
  private readonly proxies: TrustedProxies | undefined;
  private readonly urls: RoutePaths | undefined;
  private resolvedClient: Client | undefined;
  private work: AbortController | undefined;
  private parsedQuery: ParsedUrlQuery | undefined;
  private parsedCookies: Record<string, string> | undefined;
  private bodyBytes: Promise<Buffer> | undefined;
  private bodyText: Promise<string> | undefined;
  private source: BodySource | DeferredBody;

  constructor(raw: RawRequest) {
    this.method = raw.method;
    this.urlSource = raw.url;
    const headers = raw.headers;
    if (isWebHeaders(headers)) this.webHeaders = headers;
    else this.headerObject = headers;
    this.source = raw.body;
    this.limits = raw.limits;
    this.socket = raw.socket;
    this.connection = raw.connection;
    this.proxies = raw.proxies;
    this.urls = raw.urls;
  }

  /**
   * The absolute URL of the route named `name`, from this request's origin (`request.client.origin`,
   * as a trusted proxy forwards it) and root path (`request.rootPath`), its placeholders filled
   * with `pathParams`, percent-encoded (FastAPI's `request.url_for`). Throws `NoMatchFound` for an
   * unknown name, a missing, extra or empty parameter; `app.urlPathFor` gives the path alone.
   *
   * @example request.urlFor("get_student", { student_id: 42 }) // "https://school.example/students/42"
   */
  urlFor(name: string, pathParams?: PathValues): string {
    if (this.urls === undefined) {
      throw new NoMatchFound("request.urlFor() reads the app's routes: this request was not made by an app");
    }
    const path = this.urls.pathFor(name, pathParams);
    const origin = this.client.origin;
    if (origin === undefined) {
      throw new NoMatchFound(
        "request.urlFor() builds on the request's origin, and this request has no valid Host; app.urlPathFor() gives the path",
      );
    }
    return origin + this.rootPath + path;
  }

  /**
   * The path a proxy serves the app under and strips before forwarding (FastAPI's `root_path`):
   * a trusted proxy's `X-Forwarded-Prefix`, else the app's `ROOT_PATH`, else "". `request.urlFor`,
   * the served OpenAPI document and the framework's redirects put it before the app's own paths.
   *
   * @example request.rootPath // "/api/v1"
   */
  get rootPath(): string {
    const own = this.urls?.rootPath ?? "";
    if (this.proxies === undefined) return own;
    return requestRootPath(this.socket, this.header("x-forwarded-prefix"), this.proxies, own);
  }

  /** The bytes source of the body; endpoints normally use `json()`, `text()`, `body()` or `form()`. */
  get bodySource(): BodySource {
    const source = this.source;
    if (typeof (source as Partial<DeferredBody>).deferredBody !== "function") return source as BodySource;
    this.source = (source as DeferredBody).deferredBody();
    return this.source;
  }

  /** The request target as sent: path and query string, still percent-encoded. */
  get url(): string {
    if (this.target === undefined) {
      const source = this.urlSource;
      this.target = typeof source === "string" ? originFormOf(source) : targetOf(this.absoluteUrl());
    }
    return this.target;
  }

  // A web request's absolute URL, read from it once (Bun makes a new string on every read).
  private absoluteUrl(): string {
    this.absolute ??= (this.urlSource as UrlSource).url;
    return this.absolute;
  }

  /** The headers, names in lower case. */
  get headers(): IncomingHttpHeaders {
    this.headerObject ??= headersObjectOf(this.webHeaders!);
    return this.headerObject;
  }

  /**
   * One header (a lower-case name), read alone from a web request's headers until `headers` is
   * asked for: what the framework reads on every request (the id, the body's media type).
   *
   * @example const token = request.header("x-api-key");
   */
  header(name: string): string | string[] | undefined {
    if (this.headerObject !== undefined) return this.headerObject[name];
    return this.webHeaders!.get(name) ?? undefined;
  }

  /** The path of the target, still percent-encoded, without the query string. */
  get path(): string {
    if (this.pathPart === undefined) this.splitTarget();
    return this.pathPart!;
  }

  /** The raw query string, without the leading `?`. */
  get queryString(): string {
    if (this.queryPart === undefined) {
      // Straight from a web request's URL: a route the runtime matched needs no target or path string.
      if (this.target === undefined && typeof this.urlSource !== "string") {
        this.queryPart = queryOf(this.absoluteUrl());
      } else this.splitTarget();
    }
    return this.queryPart!;
  }

  /**
   * Aborts when the client goes away before its answer is complete, or when the app closes while the
   * answer streams: stop work nobody will read (an event stream's source, a long query). Made on
   * first use, so a request that never asks pays nothing.
   *
   * @example for await (const change of changes.watch(courseId, { signal: request.signal })) yield change;
   */
  get signal(): AbortSignal {
    if (this.work === undefined) {
      this.work = new AbortController();
      abortWhenClientGoes(this.connection, this.work);
    }
    return this.work.signal;
  }

  /**
   * Aborts `signal` from the server's side: the app is closing while this request's event stream is
   * written, so the stream's source stops even where it waits on something other than its next event.
   */
  stopWork(reason: Error): void {
    if (!this.signal.aborted) this.work!.abort(reason);
  }

  /**
   * Queues work to run after the answer has been written: a notification, an audit record, a
   * clean-up. Tasks run one after another in the order queued; one that fails is logged with the
   * request id and never reaches the client, and the next still runs. `app.close()` waits for the
   * work still running, up to its timeout. Queue tasks while the request is being answered.
   *
   * @example request.afterResponse(() => mailer.send(welcome(student)));
   */
  afterResponse(task: AfterResponseTask): void {
    if (typeof task !== "function") throw new TypeError("afterResponse() takes a function");
    if (this.afterResponseTasks === undefined) this.afterResponseTasks = [task];
    else this.afterResponseTasks.push(task);
  }

  // Read on first use: a request whose runtime routed it may never need its URL (see UrlSource).
  private splitTarget(): void {
    const url = this.url;
    const queryStart = url.indexOf("?");
    this.pathPart = queryStart < 0 ? url : url.slice(0, queryStart);
    this.queryPart ??= queryStart < 0 ? "" : url.slice(queryStart + 1);
  }

  /**
   * Query parameters; a repeated key gives an array. Every key is read: Node's querystring stops at
   * 1,000 by default and would drop the rest silently (a declared parameter sent after them read as
   * missing). The query's length is bounded by the server's limit on the request head.
   */
  get query(): ParsedUrlQuery {
    if (this.parsedQuery === undefined) {
      this.parsedQuery =
        this.queryString === ""
          ? Object.create(null)
          : parseQueryString(this.queryString, "&", "=", ALL_KEYS);
    }
    return this.parsedQuery!;
  }

  get cookies(): Record<string, string> {
    if (this.parsedCookies === undefined) this.parsedCookies = parseCookies(this.headers.cookie);
    return this.parsedCookies;
  }

  /**
   * Who sent the request: the socket's peer, or, behind proxies the app trusts (`PROXIES`), the
   * client they name in `X-Forwarded-For` (or `Forwarded`), with the scheme and host it used. Worked
   * out on first use, so a request that never asks pays nothing.
   *
   * @example const link = `${request.client.origin}/students/${id}`; log.info({ ip: request.client.address });
   */
  get client(): Client {
    this.resolvedClient ??= resolveClient(this.socket, this.headers, this.proxies, this.targetAuthority());
    return this.resolvedClient;
  }

  // The authority of a target sent in absolute form, which replaces Host (RFC 9112 §3.2.2): read from
  // the target as sent, or from a web request's URL where the runtime made it from the target.
  private targetAuthority(): string | undefined {
    const source = this.urlSource;
    if (typeof source === "string") return authorityOf(source);
    return absoluteFormAuthority(this.absoluteUrl(), this.header("host") as string | undefined);
  }

  /**
   * The client's address alone: `request.client.address`, without working out the scheme and
   * origin when no proxies are trusted (a rate limit's default key reads it on every request).
   */
  get clientAddress(): string | undefined {
    if (this.resolvedClient !== undefined || this.proxies !== undefined) return this.client.address;
    return this.socket?.remoteAddress;
  }

  /** The media type of the body, lower case, without parameters (`application/json`). */
  get contentType(): string {
    const header = this.header("content-type") as string | undefined;
    if (!header) return "";
    const semicolon = header.indexOf(";");
    return (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  }

  /**
   * The raw body, read once and kept; refused with 413 past the body limit. Where the body was read
   * as text first (a JSON parameter, on Bun), these are that text's UTF-8 bytes.
   */
  body(): Promise<Buffer> {
    if (this.bodyBytes === undefined) {
      this.bodyBytes =
        this.bodyText === undefined
          ? this.bodySource.read(this.limits.body)
          : this.bodyText.then((text) => Buffer.from(text, "utf8"));
    }
    return this.bodyBytes;
  }

  /**
   * The raw body to a callback, for the framework's request path: without a promise when the source
   * can (Node, whose source keeps what it read, so that `body()` later gives the same bytes or the
   * same error).
   */
  collectBody(done: BodyCallback): void {
    const source = this.bodySource;
    if (this.bodyBytes === undefined && this.bodyText === undefined && source.collect !== undefined) {
      source.collect(this.limits.body, done);
      return;
    }
    this.body().then(
      (bytes) => done(undefined, bytes),
      (error: Error) => done(error, undefined),
    );
  }

  /**
   * The body as UTF-8 text to a callback, for the framework's JSON path: read as text where the
   * source reads text more cheaply (Bun), else as bytes, decoded.
   */
  collectText(done: TextCallback): void {
    if (this.bodyText === undefined && this.bodyBytes === undefined) {
      // Read ahead by the server (Bun's routes for a JSON body): no promise to wait for.
      if (this.bodySource.collectHeldText?.(done) === true) return;
      this.bodyText = this.bodySource.readText?.(this.limits.body);
    }
    if (this.bodyText === undefined) {
      this.collectBody((error, bytes) =>
        done(error, error === undefined ? bytes!.toString("utf8") : undefined),
      );
      return;
    }
    this.bodyText.then(
      (text) => done(undefined, text),
      (error: Error) => done(error, undefined),
    );
  }

  async text(): Promise<string> {
    if (this.bodyText === undefined && this.bodyBytes === undefined) {
      this.bodyText = this.bodySource.readText?.(this.limits.body);
    }
    return this.bodyText ?? (await this.body()).toString("utf8");
  }

  /** The body parsed as JSON; `undefined` for an empty body, 400 for malformed or too deep JSON. */
  async json(): Promise<unknown> {
    return parseJsonText(await this.text(), this.limits.jsonDepth);
  }

  /** The body parsed as an urlencoded form; a repeated key gives an array; 413 past the field limit. */
  async form(): Promise<ParsedUrlQuery> {
    if (this.bodyBytes === undefined && this.bodyText === undefined) {
      this.bodyBytes = this.bodySource.read(this.limits.form);
    }
    const bytes = await this.body();
    return parseFormBody(bytes, this.limits.fields);
  }
}

/** JSON.parse with the client's mistake reported as a 400 instead of a crash. */
export function parseJsonBody(bytes: Buffer, maxDepth: number = DEFAULT_BODY_LIMITS.jsonDepth): unknown {
  return parseJsonText(bytes.toString("utf8"), maxDepth);
}

/**
 * The same for a body already decoded: `undefined` when empty. A leading byte order mark is
 * ignored (RFC 8259 §8.1 allows it), as a runtime's own `text()` drops it.
 */
export function parseJsonText(body: string, maxDepth: number = DEFAULT_BODY_LIMITS.jsonDepth): unknown {
  if (body.length === 0) return undefined;
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  if (jsonNestsDeeperThan(text, maxDepth)) {
    throw new MalformedBodyError(`Malformed JSON body: nested deeper than the limit of ${maxDepth} levels`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MalformedBodyError(`Malformed JSON body: ${(error as Error).message}`);
  }
}

/** An urlencoded body, refused with 413 when it holds more fields than `maxFields`. */
export function parseFormBody(bytes: Buffer, maxFields: number = DEFAULT_BODY_LIMITS.fields): ParsedUrlQuery {
  const text = bytes.toString("utf8");
  if (countFields(text) > maxFields) {
    throw new PayloadTooLargeError(`Too many form fields: the limit is ${maxFields}`, maxFields);
  }
  // The count is checked above; Node's own cap of 1,000 keys would drop fields silently.
  return parseQueryString(text, "&", "=", ALL_KEYS);
}

/** Non-empty `&`-separated pairs, as `querystring.parse` counts them. */
function countFields(text: string): number {
  let count = 0;
  let start = 0;
  for (;;) {
    const end = text.indexOf("&", start);
    const stop = end < 0 ? text.length : end;
    if (stop > start) count++;
    if (end < 0) return count;
    start = end + 1;
  }
}
