import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { createServer } from "../builtins.ts";
import { HttpError, MethodNotAllowedError, NotFoundError } from "../errors.ts";
import { NodeBodySource, WebBodySource } from "../http/body.ts";
import { type BodyLimits, HttpRequest, type RawRequest } from "../http/request.ts";
import { checkedStatus, checkHeaders, HttpResponse, JsonResponse } from "../http/response.ts";
import { checkOpenApiSettings } from "../openapi/check-settings.ts";
import { docsRoutes } from "../openapi/docs-routes.ts";
import { generateOpenApi } from "../openapi/generate.ts";
import type { OpenApiDocument } from "../openapi/types.ts";
import { type BuiltRoute, buildRoutes } from "../route/build-routes.ts";
import type { EndpointDescription } from "../route/description.ts";
import type { RouteDefinition } from "../route/path.ts";
import { type ResolveOptions, resolveParams } from "../route/resolve-params.ts";
import { Router } from "../route/router.ts";
import { AccessLog, REQUEST_ID_HEADER } from "./access-log.ts";
import { type ExceptionHandler, ExceptionHandlers } from "./exception-handlers.ts";
import { closeGracefully } from "./graceful-close.ts";
import { isPinoLogger, LazyLogger } from "./logging.ts";
import { requestIdFrom } from "./request-id.ts";
import { type LimitSettings, resolveLimits, type Settings, timeoutCheckInterval } from "./settings.ts";
import { toWebResponse, writeNodeResponse } from "./write-response.ts";

/** Where the app reports errors it answered with 500. A pino logger is one. */
export interface ErrorLogger {
  error(details: Record<string, unknown>, message: string): void;
}

export interface AppOptions {
  settings?: Settings;
  routes: readonly RouteDefinition[];
  /** Handlers by error class; they replace the defaults for the classes they name. */
  exceptionHandlers?: readonly ExceptionHandler[];
  /** A subclass of `HttpRequest` that endpoints receive instead. */
  requestClass?: new (
    raw: RawRequest,
  ) => HttpRequest;
  /**
   * Where errors answered with 500 go (default: the app's pino logger, `createLogger(settings.LOGGING)`).
   * A pino logger given here is the app's logger: it gets the access log too, at its own level.
   */
  logger?: ErrorLogger | Logger;
  /** Runs once the server has closed in `close()`: release what the app holds (a database pool). */
  onClose?: () => void | Promise<void>;
}

export interface ListenOptions {
  port?: number;
  host?: string;
}

export interface CloseOptions {
  /** Milliseconds requests in flight get to finish before their connections are cut (default 10 s). */
  timeout?: number;
}

/** One registered route and method: the analysed route and how to run it. */
interface RouteHandler {
  route: BuiltRoute;
}

/**
 * An app: settings and routes, built once. Serve it with `listen()`, embed it with `nodeHandler`
 * (a plain `(req, res)` handler), or call `fetch(Request)` wherever web-standard requests exist.
 */
export class App {
  readonly settings: Settings;
  readonly routes: readonly BuiltRoute[];
  readonly limits: Required<LimitSettings>;
  readonly exceptionHandlers: ExceptionHandlers;
  private readonly router = new Router<RouteHandler>();
  private readonly requestClass: new (
    raw: RawRequest,
  ) => HttpRequest;
  private readonly bodyLimits: BodyLimits;
  private readonly resolveOptions: ResolveOptions;
  private readonly lazyLogger: LazyLogger;
  private readonly errorLogger: ErrorLogger;
  private readonly accessLog: AccessLog;
  private readonly debug: boolean;
  private server: Server | undefined;
  private readonly onClose: AppOptions["onClose"];
  /** Set while `close()` runs: answers then carry `Connection: close`. */
  private closing = false;

  constructor(options: AppOptions) {
    this.settings = options.settings ?? {};
    this.limits = resolveLimits(this.settings.LIMITS);
    checkOpenApiSettings(this.settings.OPENAPI);
    this.debug = this.settings.DEBUG === true;
    this.bodyLimits = {
      body: this.limits.body_size,
      form: this.limits.form_size,
      jsonDepth: this.limits.json_depth,
      fields: this.limits.fields,
    };
    this.requestClass = options.requestClass ?? HttpRequest;
    this.resolveOptions = {
      uploads: {
        fileSize: this.limits.file_size,
        totalSize: this.limits.upload_size,
        files: this.limits.files,
        fields: this.limits.fields,
        fieldSize: this.limits.field_size,
      },
      rawQuery: !redefinesQuery(this.requestClass),
    };
    this.onClose = options.onClose;
    const logging = this.settings.LOGGING ?? {};
    this.lazyLogger = new LazyLogger(logging, isPinoLogger(options.logger) ? options.logger : undefined);
    this.errorLogger = options.logger ?? { error: (details, message) => this.logger.error(details, message) };
    this.accessLog = new AccessLog(this.lazyLogger, logging.access_log !== false);
    this.exceptionHandlers = new ExceptionHandlers(options.exceptionHandlers ?? []);
    this.routes = buildRoutes(options.routes, { fileSizeLimit: this.limits.file_size });
    for (const route of this.routes) this.register(route);
    for (const route of docsRoutes(this)) this.register(route);
  }

  /**
   * The app's pino logger: the access log, and the errors unless another `logger` was given. Made
   * from `LOGGING` on first use (pino itself is loaded then).
   */
  get logger(): Logger {
    return this.lazyLogger.logger;
  }

  /** The OpenAPI 3.1 document, generated from the routes on first use and cached. */
  openapi(): OpenApiDocument {
    return generateOpenApi(this);
  }

  /**
   * A request of the app's request class with the app's body limits, as an adapter builds it for
   * `handle()`; the in-process test client uses it.
   *
   * @example app.handle(app.createRequest({ method: "GET", url: "/hello", headers: {}, socket: undefined, body }))
   */
  createRequest(raw: Omit<RawRequest, "limits">): HttpRequest {
    return new this.requestClass({ ...raw, limits: this.bodyLimits });
  }

  /** Adds a route after construction (used for the documentation pages). */
  protected register(route: BuiltRoute): void {
    for (const method of route.methods) {
      if (!this.router.add(method, route.path, { route })) {
        throw new HttpError(500, `Two routes answer ${method} ${route.path}`);
      }
    }
  }

  /**
   * Answers one request. Never throws: every error becomes a response through the exception
   * handlers, and an error inside a handler becomes a plain 500, as does a response whose headers
   * no adapter could write. Gives the request its id, echoes it in `x-request-id`, and writes the
   * access log record. Synchronous when nothing is awaited.
   */
  handle(request: HttpRequest): HttpResponse | Promise<HttpResponse> {
    const started = this.begin(request);
    let answered: HttpResponse | undefined;
    let deliver: ((response: HttpResponse) => void) | undefined;
    this.respond(request, (response) => {
      const finished = this.writable(this.accessLog.finish(request, response, started), request);
      if (deliver === undefined) answered = finished;
      else deliver(finished);
    });
    return (
      answered ??
      new Promise((resolve) => {
        deliver = resolve;
      })
    );
  }

  /** Gives the request its id; returns the access log's start time. */
  private begin(request: HttpRequest): number {
    request.id = requestIdFrom(request.headers[REQUEST_ID_HEADER]);
    return this.accessLog.start();
  }

  /**
   * Routing, parameters, the endpoint's handler, and the exception handlers for what fails; the
   * response goes to `done`, once. Callbacks rather than promises up to the handler: a JSON body
   * costs no turn of the microtask queue, and an endpoint that awaits nothing answers synchronously.
   */
  private respond(request: HttpRequest, done: (response: HttpResponse) => void): void {
    let description: EndpointDescription;
    try {
      description = this.endpointFor(request);
    } catch (error) {
      this.settle(this.handleError(error, request), request, done);
      return;
    }
    resolveParams(description, request, this.resolveOptions, (error, values) => {
      const response =
        error === undefined ? this.run(description, request, values!) : this.handleError(error, request);
      this.settle(response, request, done);
    });
  }

  /** The endpoint of the route and method asked for (404 and 405 thrown), path parameters set. */
  private endpointFor(request: HttpRequest): EndpointDescription {
    const match = this.router.find(request.path);
    if (match === undefined) throw new NotFoundError(`Not Found: ${request.path}`);
    const handler =
      match.methods.get(request.method) ?? (request.method === "HEAD" ? match.methods.get("GET") : undefined);
    if (handler === undefined) throw new MethodNotAllowedError(withHead(match.allow));
    if (match.params !== undefined) request.pathParams = decodeParams(match.params);
    return handler.route.endpointDescription;
  }

  /** Hands a response, or the response a promise resolves to, to `done`. */
  private settle(
    response: HttpResponse | Promise<HttpResponse>,
    request: HttpRequest,
    done: (response: HttpResponse) => void,
  ): void {
    if (response instanceof Promise) response.then(done, (error) => done(this.internalError(error, request)));
    else done(response);
  }

  /** Calls the endpoint's handler with its values; what it throws or rejects with is handled. */
  private run(
    description: EndpointDescription,
    request: HttpRequest,
    values: Record<string, unknown>,
  ): HttpResponse | Promise<HttpResponse> {
    try {
      const response = description.endpoint.handler(request, values);
      if (response instanceof Promise) {
        return response.then(
          (resolved) => checkedResponse(resolved, description.label),
          (error) => this.handleError(error, request),
        );
      }
      return checkedResponse(response, description.label);
    } catch (error) {
      return this.handleError(error, request);
    }
  }

  /** Turns an error into a response with the nearest exception handler; 500 when none applies. */
  handleError(error: unknown, request: HttpRequest): HttpResponse | Promise<HttpResponse> {
    const handler = this.exceptionHandlers.find(error);
    if (handler === undefined) return this.internalError(error, request);
    try {
      const response = handler.handle(error, request);
      if (response instanceof Promise) {
        return response.then(
          (resolved) => checkedResponse(resolved, "an exception handler"),
          (failure) => this.internalError(failure, request),
        );
      }
      return checkedResponse(response, "an exception handler");
    } catch (failure) {
      return this.internalError(failure, request);
    }
  }

  private internalError(error: unknown, request: HttpRequest): HttpResponse {
    this.errorLogger.error(
      { err: error, reqId: request.id, method: request.method, path: request.path },
      "Unhandled error while answering a request",
    );
    if (this.debug && error instanceof Error) {
      return new JsonResponse(
        {
          detail: "Internal Server Error",
          error: { name: error.name, message: error.message, stack: error.stack },
        },
        { status: 500 },
      );
    }
    return new JsonResponse({ detail: "Internal Server Error" }, { status: 500 });
  }

  /** A Node `(req, res)` handler, for `http.createServer(app.nodeHandler)` or embedding. */
  readonly nodeHandler = (message: IncomingMessage, res: ServerResponse): void => {
    const request = new this.requestClass({
      method: message.method ?? "GET",
      url: message.url ?? "/",
      headers: message.headers,
      socket: message.socket,
      body: new NodeBodySource(message),
      limits: this.bodyLimits,
    });
    // handle() without its promise: the response is logged and written as soon as it exists.
    const started = this.begin(request);
    this.respond(request, (response) =>
      this.send(res, this.accessLog.finish(request, response, started), request),
    );
  };

  private send(res: ServerResponse, response: HttpResponse, request: HttpRequest): void {
    // While closing, the client must not keep the connection for another request.
    if (this.closing && !res.headersSent) res.setHeader("connection", "close");
    try {
      writeNodeResponse(res, response, request);
    } catch (error) {
      // What Node refuses to write (a header changed after the response was built, to a value with a
      // line break) is a 500, not an exception that would stop the process.
      if (res.headersSent) res.destroy();
      else writeNodeResponse(res, this.unwritable(error, request), request);
    }
  }

  /**
   * The response, or the 500 that replaces it when its status or a header was changed, after it was
   * built, to something no adapter could write. `handle()` checks for the callers that write what it
   * returns (`fetch`, the test client); the Node adapter checks the status itself and finds out about
   * headers when Node refuses them, at no cost otherwise.
   */
  private writable(response: HttpResponse, request: HttpRequest): HttpResponse {
    try {
      checkedStatus(response.status);
      checkHeaders(response.headers);
      return response;
    } catch (error) {
      return this.unwritable(error, request);
    }
  }

  /**
   * The 500 sent instead of a response an adapter could not write. It carries the request id; the
   * access log already has its record of the request.
   */
  private unwritable(error: unknown, request: HttpRequest): HttpResponse {
    return this.accessLog.finish(request, this.internalError(error, request), -1);
  }

  /** Answers a web-standard `Request`, for runtimes other than Node's `http`. */
  readonly fetch = async (webRequest: Request): Promise<Response> => {
    const url = new URL(webRequest.url);
    const headers: Record<string, string> = {};
    webRequest.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const request = new this.requestClass({
      method: webRequest.method,
      url: url.pathname + url.search,
      headers,
      socket: undefined,
      body: new WebBodySource(webRequest.body, webRequest.headers.get("content-length")),
      limits: this.bodyLimits,
    });
    return toWebResponse(await this.handle(request), request);
  };

  /**
   * Starts Node's HTTP server. Resolves to the listening server, so `port: 0` gives a free port.
   *
   * @example const server = await app.listen({ port: 0 }); const { port } = server.address() as AddressInfo;
   */
  listen(options: ListenOptions = {}): Promise<Server> {
    if (this.server) return Promise.reject(new Error("The app is already listening; close() it first"));
    const server = createServer(
      {
        maxHeaderSize: this.limits.header_size,
        headersTimeout: this.limits.headers_timeout,
        requestTimeout: this.limits.request_timeout,
        keepAliveTimeout: this.limits.keep_alive_timeout,
        connectionsCheckingInterval: timeoutCheckInterval(this.limits),
      },
      this.nodeHandler,
    );
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

  /**
   * Stops the server gracefully: accepts no new connection, closes idle keep-alive connections,
   * lets requests in flight finish (their answers carry `Connection: close`), and at the deadline
   * cuts whatever connections remain. Resolves once every connection is closed.
   *
   * @example process.once("SIGTERM", () => app.close({ timeout: 5_000 }).then(() => process.exit(0)));
   */
  async close(options: CloseOptions = {}): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.closing = true;
    try {
      await closeGracefully(server, options.timeout ?? 10_000);
    } finally {
      this.closing = false;
    }
    await this.onClose?.();
  }
}

/**
 * Builds an app from settings and routes. Every route is analysed here, so every definition error
 * surfaces before the server listens.
 *
 * @example
 * const app = createApp({ settings: { OPENAPI: { info, allow_public: true } }, routes: patterns });
 * await app.listen({ port: 8000 });
 */
export function createApp(options: AppOptions): App {
  return new App(options);
}

function withHead(allow: string): string[] {
  const methods = allow.split(", ");
  if (methods.includes("GET") && !methods.includes("HEAD")) methods.push("HEAD");
  return methods;
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  for (const key of Object.keys(params)) {
    const value = params[key]!;
    if (!value.includes("%")) continue;
    try {
      params[key] = decodeURIComponent(value);
    } catch {
      throw new HttpError(400, `Malformed percent-encoding in the path: ${value}`);
    }
  }
  return params;
}

function checkedResponse(response: unknown, who: string): HttpResponse {
  if (response instanceof HttpResponse) return response;
  throw new TypeError(
    `${who} returned ${response === null ? "null" : typeof response}, not a response; return a JsonResponse, a PlainTextResponse or another HttpResponse.`,
  );
}

/** True when a request class (a subclass of `HttpRequest`) defines `query` its own way. */
function redefinesQuery(requestClass: Function): boolean {
  for (
    let proto = requestClass.prototype;
    proto && proto !== HttpRequest.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    if (Object.hasOwn(proto, "query")) return true;
  }
  return false;
}
