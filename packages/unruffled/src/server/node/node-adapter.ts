import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { TrustedProxies } from "../../client-address/trusted-proxies.ts";
import type { AfterResponseWork } from "../../handling/after-response.ts";
import type { RequestHandler } from "../../handling/handle-request.ts";
import type { RouteUrls } from "../../handling/route-urls.ts";
import { NodeBodySource } from "../../http/body.ts";
import type { BodyLimits } from "../../http/body-limits.ts";
import { EventFrames } from "../../http/event-frames.ts";
import type { HttpRequest, RawRequest } from "../../http/request.ts";
import { checkedStatus, checkHeaders, type HttpResponse, statusHasNoBody } from "../../http/response.ts";
import { requestIdFrom } from "../../logging/request-id.ts";
import { createServer, Readable } from "../../node-builtins.ts";
import { clientErrorListener, type ErrorBodyOf } from "../client-errors.ts";
import { type ConnectionLimits, timeoutCheckInterval } from "../connection-limits.ts";
import { closeGracefully } from "../graceful-close.ts";
import { BodyEncoder } from "./body-encoder.ts";
import { awaitTurn } from "./pipelining.ts";

export interface ListenOptions {
  port?: number;
  host?: string;
}

/** How long `close()` lets requests in flight finish unless told otherwise. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;

export interface CloseOptions {
  /** Milliseconds requests in flight get to finish before their connections are cut (default 10 s). */
  timeout?: number;
  /**
   * Drain first: readiness answers 503 at once and the app keeps serving (every answer with
   * `Connection: close`) for this many milliseconds, so that load balancers stop sending before the
   * server stops accepting. `true` is the app's `health.drainDelayMs` (default 5 s), skipped when
   * nothing asked for readiness since the app started; a number always waits. Default: no drain.
   */
  drain?: boolean | number;
}

/** What the Node adapter needs of the app. */
export interface NodeAdapterOptions {
  requests: RequestHandler;
  /** Runs what requests queue with `afterResponse()`, once their answer is written. */
  work: AfterResponseWork;
  requestClass: new (raw: RawRequest) => HttpRequest;
  bodyLimits: BodyLimits;
  /** The connection limits of Node's server: head size and timeouts. */
  limits: ConnectionLimits;
  /** The proxies `request.client` believes (`PROXIES`); undefined for none. */
  proxies: TrustedProxies | undefined;
  /** The app's routes by name, for `request.urlFor`. */
  urls: RouteUrls;
  /** The body of an error answered without a request (what Node's parser refused), in the app's format. */
  errorBody: ErrorBodyOf;
}

/**
 * The app on Node's `http`: a `(req, res)` handler that builds the request, has the app answer it
 * and writes the answer, and the server's life (listen, graceful close).
 */
export class NodeAdapter {
  private readonly requests: RequestHandler;
  private readonly work: AfterResponseWork;
  private readonly requestClass: new (
    raw: RawRequest,
  ) => HttpRequest;
  private readonly bodyLimits: BodyLimits;
  private readonly limits: ConnectionLimits;
  private readonly proxies: TrustedProxies | undefined;
  private readonly urls: RouteUrls;
  private server: Server | undefined;
  /** Set while `close()` runs: new event streams end at once. */
  private closing = false;
  /** Set from the start of a drain until `close()` has finished: answers carry `Connection: close`. */
  private endKeepAlive = false;
  /** The event streams being written, with their requests, which `close()` ends. */
  private readonly streams = new Map<EventFrames, HttpRequest>();
  /** The app's WebSocket upgrades (`server.on("upgrade")`); undefined without WebSocket routes. */
  upgradeHandler: ((message: IncomingMessage, socket: Duplex, head: Buffer) => void) | undefined;
  /** Which upgrade requests go to `upgradeHandler`; the others are answered as requests. */
  shouldUpgrade: ((message: IncomingMessage) => boolean) | undefined;
  /** Large string bodies, encoded once before Node writes them. */
  private readonly encoder = new BodyEncoder();

  constructor(options: NodeAdapterOptions) {
    this.requests = options.requests;
    this.work = options.work;
    this.requestClass = options.requestClass;
    this.bodyLimits = options.bodyLimits;
    this.limits = options.limits;
    this.proxies = options.proxies;
    this.urls = options.urls;
    this.clientErrorHandler = clientErrorListener(
      options.errorBody,
      options.limits.header_size,
      () => requestIdFrom(undefined),
      (request) => options.requests.refused(request),
    );
  }

  /**
   * Node's `clientError` listener: what the parser refuses, answered in the app's error format.
   * For embedding: `server.on("clientError", app.clientErrorHandler)` (`listen()` does it).
   */
  readonly clientErrorHandler: ReturnType<typeof clientErrorListener>;

  /** A Node `(req, res)` handler, for `http.createServer(handler)` or embedding. */
  readonly handler = (message: IncomingMessage, res: ServerResponse): void => {
    const socket = res.socket;
    // Pipelined behind an answer not written yet: it runs in its turn, if its turn comes.
    if (socket === null) {
      awaitTurn(message, res, this.handler);
      return;
    }
    // An answer before it closed the connection: no request after it reaches the app (RFC 9112 §9.6).
    if (socket.writableEnded) {
      message.resume();
      return;
    }
    const request = new this.requestClass({
      method: message.method ?? "GET",
      url: message.url ?? "/",
      headers: message.headers,
      socket: message.socket,
      body: new NodeBodySource(message),
      limits: this.bodyLimits,
      connection: res,
      proxies: this.proxies,
      urls: this.urls,
    });
    // handle() without its promise: the response is logged and written as soon as it exists.
    const requests = this.requests;
    const started = requests.begin(request);
    requests.respond(
      request,
      (response) => this.send(res, requests.finish(request, response, started), request),
      // Where listen() made the server (it leaves Host to the app), HTTP/1.1 requires one; a server
      // made elsewhere with Node's default refused a request without it before this handler.
      message.httpVersionMinor === 1,
    );
  };

  private send(res: ServerResponse, response: HttpResponse, request: HttpRequest): void {
    // The client left before its answer was ready: "close" was emitted already and will not come
    // again, so what the answer holds is released now instead of being written to nobody.
    if (res.closed) {
      this.abandon(response, request);
      return;
    }
    // While draining or closing, the client must not keep the connection for another request.
    if (this.endKeepAlive && !res.headersSent) res.setHeader("connection", "close");
    // "close" follows "finish" (written out) or a client gone: either way the answer is over.
    if (request.afterResponseTasks !== undefined) res.once("close", () => this.work.start(request));
    if (response.body instanceof EventFrames) this.follow(res, response.body, request);
    try {
      writeNodeResponse(res, response, request, this.encoder);
    } catch (error) {
      // What Node refuses to write (a header changed after the response was built, to a value with a
      // line break) is a 500, not an exception that would stop the process.
      if (res.headersSent) res.destroy();
      else {
        // writeHead set the refused status's reason phrase before it refused a header: the 500 says its own.
        res.statusMessage = "";
        writeNodeResponse(res, this.requests.unwritable(error, request), request, this.encoder);
      }
    }
  }

  /**
   * Releases an answer whose client is gone: its body stream (a file, a zlib stream, an event
   * stream's iterator and heartbeat) is destroyed, and the work queued with `afterResponse()` runs,
   * as it does once any answer is over.
   */
  private abandon(response: HttpResponse, request: HttpRequest): void {
    const body = response.body;
    if (body instanceof Readable) body.destroy();
    if (request.afterResponseTasks !== undefined) this.work.start(request);
  }

  /** Starts Node's HTTP server with the app's connection limits; resolves once it listens. */
  listen(options: ListenOptions): Promise<Server> {
    if (this.server) return Promise.reject(new Error("The app is already listening; close() it first"));
    const server = createServer(
      {
        maxHeaderSize: this.limits.header_size,
        headersTimeout: this.limits.headers_timeout,
        requestTimeout: this.limits.request_timeout,
        keepAliveTimeout: this.limits.keep_alive_timeout,
        connectionsCheckingInterval: timeoutCheckInterval(this.limits),
        // A header that takes one value (Content-Type, Authorization, Host), sent twice, reads as both
        // values joined by ", ", as on Bun and Deno, and never fits its grammar: Node's default keeps
        // the first and drops the other, which a proxy in front may have read instead.
        joinDuplicateHeaders: true,
        // An HTTP/1.1 request without Host is refused by the app (400 in its error format, with a
        // request id) instead of by Node (a 400 without a body, closing the connection).
        requireHostHeader: false,
        // Node ≥ 22.21 and 24.9; an older one hands every upgrade request to the listener.
        ...(this.shouldUpgrade !== undefined && { shouldUpgradeCallback: this.shouldUpgrade }),
      },
      this.handler,
    );
    if (this.upgradeHandler !== undefined) server.on("upgrade", this.upgradeHandler);
    server.on("clientError", this.clientErrorHandler);
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once("error", (error) => {
        this.server = undefined;
        reject(error);
      });
      server.listen(options.port ?? 8000, options.host ?? "127.0.0.1", () => resolve(server));
    });
  }

  /** The address the server listens on, once `listen()` resolved. */
  address(): AddressInfo | undefined {
    return (this.server?.address() as AddressInfo | null) ?? undefined;
  }

  /** An event stream being written: `close()` ends it, since it would otherwise never end. */
  private follow(res: ServerResponse, stream: EventFrames, request: HttpRequest): void {
    if (this.closing) {
      endStream(stream, request);
      return;
    }
    this.streams.set(stream, request);
    res.once("close", () => this.streams.delete(stream));
  }

  /**
   * The start of a drain: the server still accepts and answers, but each answer carries
   * `Connection: close`, so that keep-alive clients (a load balancer's pool) open their next
   * connection elsewhere. `close()` ends it.
   */
  drain(): void {
    if (this.server !== undefined) this.endKeepAlive = true;
  }

  /**
   * Stops the server gracefully (see `App.close`). Resolves to false when nothing was listening,
   * else to true once every connection is closed.
   */
  async close(options: CloseOptions): Promise<boolean> {
    const server = this.server;
    if (!server) return false;
    this.server = undefined;
    this.closing = true;
    this.endKeepAlive = true;
    for (const [stream, request] of this.streams) endStream(stream, request);
    try {
      await closeGracefully(server, options.timeout ?? DEFAULT_CLOSE_TIMEOUT_MS);
    } finally {
      this.closing = false;
      this.endKeepAlive = false;
    }
    return true;
  }
}

/**
 * Ends an event stream because the app is closing: after what was sent, with its iterator closed
 * and its request's signal aborted, so that a source waiting on something stops too.
 */
function endStream(stream: EventFrames, request: HttpRequest): void {
  stream.finish();
  request.stopWork(new Error("The app is closing"));
}

/**
 * Writes a response to Node. Content-Length is computed here so that Node does not fall back to
 * chunked encoding; HEAD gets the headers only. A large string body goes out as the bytes the
 * encoder made of it, whose length is the Content-Length. A request whose body was refused part-way
 * closes its connection after the answer, so the unread rest is never read.
 */
function writeNodeResponse(
  res: ServerResponse,
  response: HttpResponse,
  request: HttpRequest,
  encoder: BodyEncoder,
): void {
  // Node would send a 1xx as if informational and leave the client waiting: refused like a bad header.
  checkedStatus(response.status);
  const headers = response.headers as Record<string, string | string[]>;
  // A 204 or 304 ends after its head (RFC 9110 §6.4.1). For one, writeHead marks the answer bodiless
  // before it checks the headers: were one refused there, the 500 sent instead would lose its body.
  // Checked first, for these statuses only.
  const noBody = statusHasNoBody(response.status);
  if (noBody) checkHeaders(headers);
  const body = response.body;
  if (request.bodySource.abandoned) headers.connection = "close";
  if (body instanceof Readable) {
    res.writeHead(response.status, headers);
    if (request.method === "HEAD") {
      body.destroy();
      res.end();
    } else {
      body.on("error", () => res.destroy());
      // A client gone before the end stops the source: a file, a zlib stream, an event stream's iterator.
      res.once("close", () => body.destroy());
      body.pipe(res);
    }
    return;
  }
  const head = request.method === "HEAD";
  // Node drops a 204's or 304's body, and no length is made up for it.
  let bytes: Buffer | undefined;
  if (headers["content-length"] === undefined && !noBody) {
    if (typeof body === "string") {
      bytes = head ? undefined : (encoder.encode(body) ?? bytesBesideLatin1(body, headers));
      headers["content-length"] = String(bytes?.length ?? Buffer.byteLength(body));
    } else if (body !== null) headers["content-length"] = String(body.byteLength);
    // No body says so: else Node would send an empty chunked one.
    else headers["content-length"] = "0";
  }
  res.writeHead(response.status, headers);
  res.end(head || noBody || body === null ? undefined : (bytes ?? body));
  if (bytes !== undefined) encoder.release(res, bytes);
}

// A header value's characters from U+0080 to U+00FF (obs-text) go out as one byte each, as Node
// writes a head alone and as fetch, Bun and Deno read and write them; a head that Node joins to a
// string body is written as UTF-8 with it. Such an answer's body goes out as bytes, so its head is alone.
const OBS_TEXT = /[\x80-\xff]/;

function bytesBesideLatin1(body: string, headers: Record<string, string | string[]>): Buffer | undefined {
  for (const name in headers) {
    const value = headers[name]!;
    if (typeof value === "string" ? OBS_TEXT.test(value) : value.some((item) => OBS_TEXT.test(item))) {
      return Buffer.from(body);
    }
  }
  return undefined;
}
