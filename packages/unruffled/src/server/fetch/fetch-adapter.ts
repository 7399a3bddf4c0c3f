import { NodeBodySource } from "../../http/body.ts";
import { EventFrames } from "../../http/event-frames.ts";
import { FileResponse } from "../../http/file-response.ts";
import type { HttpRequest, RawRequest } from "../../http/request.ts";
import type { UrlSource } from "../../http/request-target.ts";
import { type HttpResponse, statusHasNoBody } from "../../http/response.ts";
import { asksForUpgrade } from "../../http/upgrade-request.ts";
import { Readable } from "../../node-builtins.ts";
import { LATE_REQUEST } from "../client-errors.ts";
import { currentRuntime } from "../runtime.ts";
import { type NodeBindings, nodeBindingsOf } from "./node-host.ts";
import { type BodyOutcome, webStreamOf } from "./web-body.ts";
import { type PeerOf, WebClient } from "./web-client.ts";
import { type BodyDeadlines, WebRequestBody } from "./web-request-body.ts";

/** What the fetch adapter needs of the app: its requests, and its answers. */
export interface FetchTarget {
  /** Runs the `onStartup` hooks once per start: the same promise until `close()`, a new one after. */
  startup(): Promise<void>;
  createRequest(raw: Omit<RawRequest, "limits">): HttpRequest;
  handle(request: HttpRequest, startWork: boolean): HttpResponse | Promise<HttpResponse>;
  startWork(request: HttpRequest): void;
}

/**
 * The event streams a server that runs the fetch handler is writing, which its `close()` ends (they
 * would otherwise never end), and whether it is closing. Given by the Bun and Deno servers only.
 */
export interface StreamsInFlight {
  closing: boolean;
  /**
   * Set while the app drains before closing: answers carry `Connection: close`, so that a load
   * balancer's keep-alive connections end and its next requests go to another instance.
   */
  draining?: boolean;
  readonly streams: Map<EventFrames, HttpRequest>;
  /**
   * The client's address, from what the runtime passes its handler beside the request; asked only
   * when `request.client` is read.
   */
  peer?: PeerOf;
  /**
   * On a server that has no timeout of its own for a request's body (`Deno.serve`): the app's
   * `request_timeout`, by which a body it reads must be in, else 408 in its error format.
   */
  bodyDeadline?: BodyDeadlines;
}

/**
 * A fetch handler: a promise of the `Response` to a web `Request`. Called by a host on Node that
 * passes Node's request and response beside it (`@hono/node-server`'s bindings), it hands an answer
 * ready at once over as it is, which that host writes on its fast path.
 */
export interface FetchHandler {
  (webRequest: Request): Promise<Response>;
  (webRequest: Request, context: unknown): Response | Promise<Response>;
}

/**
 * The app as a web-standard `(Request) => Promise<Response>`, for runtimes other than Node's `http`.
 *
 * @example const response = await fetchHandler(app)(new Request("http://localhost/hello"));
 */
export function fetchHandler(app: FetchTarget, inFlight?: StreamsInFlight): FetchHandler {
  const answer = webHandler(app, inFlight);
  const promised = async (webRequest: Request, context: unknown) => answer(webRequest, context);
  return ((webRequest: Request, context?: unknown) =>
    nodeBindingsOf(context) === undefined
      ? promised(webRequest, context)
      : answer(webRequest, context)) as FetchHandler;
}

/**
 * The same handler for a runtime's server (`Bun.serve`, `Deno.serve`), which takes a `Response` or
 * a promise of one: an answer ready at once is handed over without a promise to wait for.
 *
 * @example Bun.serve({ fetch: webHandler(app, inFlight) })
 */
export function webHandler(
  app: FetchTarget,
  inFlight?: StreamsInFlight,
): (webRequest: Request, context?: unknown) => Response | Promise<Response>;
export function webHandler(
  app: FetchTarget,
  inFlight: StreamsInFlight,
  upgrade: WebUpgrade | undefined,
): (webRequest: Request, context?: unknown) => Response | undefined | Promise<Response | undefined>;
export function webHandler(
  app: FetchTarget,
  inFlight?: StreamsInFlight,
  upgrade?: WebUpgrade,
): (webRequest: Request, context?: unknown) => Response | undefined | Promise<Response | undefined> {
  // Where no server listens (other runtimes), the first request starts the app, and the first after
  // a close() starts it again: app.startup() gives one promise per start, so a new one means a new
  // start to wait for. A server that serve() started ran the hooks before it listened.
  let started: Promise<void> | undefined;
  const answer = (
    webRequest: Request,
    context: unknown,
  ): Response | undefined | Promise<Response | undefined> => {
    // A runtime's own server (inFlight given) is never a Node host.
    const node = inFlight === undefined ? nodeBindingsOf(context) : undefined;
    if (node !== undefined) return answerFromNode(app, webRequest, node);
    const client = new WebClient(webRequest, context, inFlight?.peer);
    const method = webRequest.method;
    const deadline = inFlight?.bodyDeadline;
    // Counted from the request's arrival, as Node counts it; GET and HEAD have no body on Deno.
    const timed =
      deadline === undefined || method === "GET" || method === "HEAD"
        ? undefined
        : new WebRequestBody(webRequest, webRequest.headers, deadline, performance.now() + deadline.timeout);
    // The URL is read when the router asks for the path; a target in absolute form keeps its authority.
    const request = requestOf(app, inFlight, webRequest, method, webRequest, client, timed);
    // What Node hands its `upgrade` listener: an Upgrade header with the Connection that asks for it.
    if (upgrade !== undefined && asksForUpgrade(request)) {
      return handedOver(upgrade(webRequest, context, request), client);
    }
    const response = app.handle(request, false);
    if (timed !== undefined)
      return answerByDeadline(app, inFlight!, response, webRequest, request, client, timed);
    return toWebWhenReady(app, inFlight, response, webRequest, request, client);
  };
  if (inFlight !== undefined) return answer;
  return (webRequest, context) => {
    const start = app.startup();
    if (start === started) return answer(webRequest, context);
    return start.then(() => {
      started = start;
      return answer(webRequest, context);
    });
  };
}

/**
 * The app's answer to a request whose body is held to `request_timeout` (see
 * StreamsInFlight.bodyDeadline): if the body it reads is not in by then, 408 in the app's error
 * format (as Node's server answers it: not through the app's exception handlers), the client taken
 * as gone (its pending read fails, `request.signal` aborts), and the app's own answer, once it
 * comes, dropped; the work after the answer runs then.
 */
function answerByDeadline(
  app: FetchTarget,
  inFlight: StreamsInFlight,
  response: HttpResponse | Promise<HttpResponse>,
  webRequest: Request,
  request: HttpRequest,
  client: WebClient,
  body: WebRequestBody,
): Response | Promise<Response> {
  if (!(response instanceof Promise)) {
    body.answeredInTime();
    return toWeb(app, inFlight, response, webRequest, request, client);
  }
  return new Promise<Response>((resolve, reject) => {
    body.onLate = () => {
      client.cancel();
      resolve(lateAnswer(inFlight.bodyDeadline!, request, body));
    };
    response.then((ready) => {
      try {
        if (body.answeredInTime()) resolve(toWeb(app, inFlight, ready, webRequest, request, client));
        else {
          if (ready.body instanceof Readable) ready.body.destroy();
          app.startWork(request);
        }
      } catch (error) {
        reject(error);
      }
    }, reject);
  });
}

/**
 * The 408 to a body late past `request_timeout`, worded as Node's server words it, with the
 * request's id and one `Connection: close` (`Deno.serve` adds its own while the body's read is
 * pending, and not once it was cancelled). `Deno.serve` gives no way to close the connection: it
 * stays open until the client closes it (as a client told `Connection: close` does).
 */
function lateAnswer(deadlines: BodyDeadlines, request: HttpRequest, late: WebRequestBody): Response {
  const { contentType, body } = deadlines.errorBody(408, LATE_REQUEST, request.id);
  const response = new Response(body, { status: 408 });
  response.headers.set("content-type", contentType);
  response.headers.set("x-request-id", request.id);
  if (late.cancelledLate) response.headers.set("connection", "close");
  return response;
}

/**
 * The fetch handler's part for upgrade requests, on a server that opens WebSockets itself
 * (`Bun.serve`): a promise of the refusal, or of nothing once the socket is open.
 */
export type WebUpgrade = (
  webRequest: Request,
  context: unknown,
  request: HttpRequest,
) => Promise<Response | undefined>;

/**
 * An upgrade's answer, after which the client counts as served: the 101 (or the refusal) was the
 * whole answer, so Bun's abort of the request's signal once the socket closes is not a client
 * leaving (on Node, the upgrade request's signal never aborts after the handshake either).
 */
function handedOver(answer: Promise<Response | undefined>, client: WebClient): Promise<Response | undefined> {
  return answer.then((response) => {
    client.writableFinished = true;
    return response;
  });
}

/**
 * A refusal of an upgrade (or any answer made outside a route) as a web `Response`.
 *
 * @example transport.refuse = (response) => resolve(webResponseOf(response));
 */
export function webResponseOf(response: HttpResponse): Response {
  const body = statusHasNoBody(response.status) ? null : webBodyOf(response.body);
  return webResponse(body, response.status, response.headers);
}

/** The app's request for a web `Request`: its headers as one object, its body read on demand. */
export function requestOf(
  app: FetchTarget,
  inFlight: StreamsInFlight | undefined,
  webRequest: Request,
  method: string,
  url: string | UrlSource,
  client: WebClient,
  body?: WebRequestBody,
): HttpRequest {
  // The headers as they are: one is read alone (the id, the length), all only if asked for.
  const headers = webRequest.headers;
  return app.createRequest({
    method,
    url,
    headers,
    // The client answers for its address and its TLS too (read only if asked): no object more per request.
    socket: client,
    body: body ?? client,
    connection: client,
  });
}

/**
 * A request a fetch-based host on Node hands over with Node's own request and response beside it
 * (`@hono/node-server`): headers, body, peer and "the client left" are read from those, as the Node
 * adapter reads them, instead of through the host's web `Headers` and body stream.
 */
function answerFromNode(
  app: FetchTarget,
  webRequest: Request,
  node: NodeBindings,
): Response | Promise<Response> {
  const { incoming, outgoing } = node;
  const request = app.createRequest({
    method: webRequest.method,
    // Its URL, made with `new URL()` (dot segments removed), from the target when in absolute form.
    url: webRequest,
    headers: incoming.headers,
    socket: incoming.socket,
    body: new NodeBodySource(incoming),
    connection: outgoing,
  });
  const response = app.handle(request, false);
  return toWebWhenReady(app, undefined, response, webRequest, request, undefined);
}

/** `toWeb` of an answer ready now, or once its promise resolves: a ready one is not put in a promise. */
export function toWebWhenReady(
  app: FetchTarget,
  inFlight: StreamsInFlight | undefined,
  response: HttpResponse | Promise<HttpResponse>,
  webRequest: Request,
  request: HttpRequest,
  client: WebClient | undefined,
): Response | Promise<Response> {
  return response instanceof Promise
    ? response.then((ready) => toWeb(app, inFlight, ready, webRequest, request, client))
    : toWeb(app, inFlight, response, webRequest, request, client);
}

/** The app's answer as the runtime's `Response`, with the work after it set to start once it is sent. */
export function toWeb(
  app: FetchTarget,
  inFlight: StreamsInFlight | undefined,
  response: HttpResponse,
  webRequest: Request,
  request: HttpRequest,
  client: WebClient | undefined,
): Response {
  if (inFlight?.draining === true) response.headers.connection = "close";
  // Before anything reads its body, which would open the file as a stream.
  if (bunFile !== undefined && response instanceof FileResponse && request.method !== "HEAD") {
    const range = response.unreadRange();
    if (range !== undefined) {
      // Bun sends the file itself (sendfile), and keeps its length: it drops it from a streamed body.
      if (client !== undefined) client.writableFinished = true;
      app.startWork(request);
      // The whole file unsliced: Bun sends it faster than a slice of it (and reads no size here).
      const whole = bunFile(response.path);
      const file = range.whole ? whole : whole.slice(range.start, range.end + 1);
      return webResponse(file, response.status, response.headers);
    }
  }
  // A client gone before its answer was ready: its body stream is released, not handed to nobody,
  // and the work after the answer runs as it does once a body was sent.
  if (response.body instanceof Readable && webRequest.signal.aborted) {
    response.body.destroy();
    app.startWork(request);
    return new Response(null, { status: response.status });
  }
  if (inFlight !== undefined && response.body instanceof EventFrames) {
    follow(inFlight, response.body, request);
  }
  // The work after the answer (afterResponse() tasks, then the yield dependencies' clean-ups) waits
  // for the body to be sent, as on Node: a streamed body may still read from the session.
  return toWebResponse(app, response, request, client);
}

/** An event stream being written: the server's `close()` ends it, and ends at once one that starts while closing. */
function follow(inFlight: StreamsInFlight, stream: EventFrames, request: HttpRequest) {
  if (inFlight.closing) {
    endStream(stream, request);
    return;
  }
  inFlight.streams.set(stream, request);
  stream.once("close", () => inFlight.streams.delete(stream));
}

/**
 * Ends an event stream because its server is closing: after what was sent, with its iterator closed
 * and its request's signal aborted, as the Node adapter does.
 *
 * @example for (const [stream, request] of inFlight.streams) endStream(stream, request);
 */
export function endStream(stream: EventFrames, request: HttpRequest): void {
  stream.finish();
  request.stopWork(new Error("The app is closing"));
}

/**
 * The same response as a web-standard `Response`; HEAD, 204 and 304 without a body. The request's
 * work (`app.startWork`) starts once the body was read to its end, cancelled, or not sent at all
 * (called here rather than through a callback: no closure per answer); `client` learns whether the whole
 * answer went out (a stream read to its end, or a body handed over at once). Without a `client`
 * (a Node host's), the Node response being written tells it.
 */
function toWebResponse(
  app: FetchTarget,
  response: HttpResponse,
  request: HttpRequest,
  client: WebClient | undefined,
): Response {
  const body = response.body;
  if (request.method === "HEAD" || body === null || statusHasNoBody(response.status)) {
    if (body instanceof Readable) body.destroy();
    if (client !== undefined) client.writableFinished = true;
    app.startWork(request);
    return webResponse(null, response.status, response.headers);
  }
  if (body instanceof Readable) {
    const stream = webStreamOf(body, new StreamedAnswer(app, request, client));
    return webResponse(stream, response.status, response.headers);
  }
  if (client !== undefined) client.writableFinished = true;
  app.startWork(request);
  return webResponse(webBodyOf(body), response.status, response.headers);
}

/**
 * What follows a streamed answer's end. Read to its end, the answer is out; cancelled or cut, its
 * client left: `request.signal` aborts, and the work after the answer starts at once, as on Node.
 */
class StreamedAnswer implements BodyOutcome {
  private readonly app: FetchTarget;
  private readonly request: HttpRequest;
  private readonly client: WebClient | undefined;

  constructor(app: FetchTarget, request: HttpRequest, client: WebClient | undefined) {
    this.app = app;
    this.request = request;
    this.client = client;
  }

  bodyOver(sentInFull: boolean): void {
    if (sentInFull) {
      if (this.client !== undefined) this.client.writableFinished = true;
    } else this.client?.cancel();
    this.app.startWork(this.request);
  }
}

/** An answer's body as a web `Response` takes it: a Node stream as a web stream, bytes and text as they are. */
function webBodyOf(
  body: HttpResponse["body"],
): string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null {
  if (!(body instanceof Readable)) return body as string | Uint8Array<ArrayBuffer> | null;
  return webStreamOf(body, undefined);
}

// Bun and Deno make a Response faster when its headers are set on it than from a headers object in
// its init (on Deno by several microseconds an answer: names other than the few it knows take a slow
// path there). On Node the other way round: @hono/node-server's light Response writes a plain object
// straight to Node, and `response.headers` would make it build a whole web Response.
const HEADERS_SET_AFTER = currentRuntime() !== "node";

/** `Bun.file` on Bun: a file answered as a `Blob` of it, which Bun sends without JavaScript per chunk. */
const bunFile =
  currentRuntime() === "bun"
    ? (globalThis as unknown as { Bun: { file(path: string): Blob } }).Bun.file
    : undefined;

/** The `Response` of a body, status and the app's headers, made the cheapest way for the runtime. */
function webResponse(
  body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | Blob | null,
  status: number,
  headers: HttpResponse["headers"],
): Response {
  if (!HEADERS_SET_AFTER) return new Response(body, { status, headers: webHeadersOf(headers) });
  // Without an init for a 200 (its default): on Bun, reading one costs about 50 ns an answer.
  const response = status === 200 ? new Response(body) : new Response(body, { status });
  const target = response.headers;
  for (const name in headers) {
    const value = headers[name]!;
    if (typeof value === "string") target.set(name, value);
    else {
      target.delete(name);
      for (const item of value) target.append(name, item);
    }
  }
  return response;
}

/** The response's headers as `Response` takes them: the object itself unless a header repeats. */
function webHeadersOf(headers: HttpResponse["headers"]): Record<string, string> | Headers {
  for (const name in headers) {
    if (typeof headers[name] === "string") continue;
    const repeated = new Headers();
    for (const [key, value] of Object.entries(headers)) {
      if (typeof value === "string") repeated.set(key, value);
      else for (const item of value as readonly string[]) repeated.append(key, item);
    }
    return repeated;
  }
  return headers as Record<string, string>;
}
