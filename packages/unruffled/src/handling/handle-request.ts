import { NotFoundError } from "../errors.ts";
import { checkedResponse, readyResponse } from "../http/checked-response.ts";
import type { Middleware } from "../http/middleware.ts";
import type { HttpRequest } from "../http/request.ts";
import { hostRefusal } from "../http/request-target.ts";
import { checkedStatus, checkHeaders, type HttpResponse, JsonResponse } from "../http/response.ts";
import { type AccessLog, REQUEST_ID_HEADER, type RefusedRequest } from "../logging/access-log.ts";
import type { ErrorLogger } from "../logging/logger.ts";
import { requestIdFrom } from "../logging/request-id.ts";
import { internalErrorProblem } from "../problem/problem-handlers.ts";
import type { BuiltRoute } from "../route/analyse/build-routes.ts";
import type { EndpointDescription } from "../route/description.ts";
import { acceptsJsonMediaType } from "../route/resolve/read-body.ts";
import type { ResolveOptions } from "../route/resolve/resolve-params.ts";
import type { AfterResponseWork } from "./after-response.ts";
import type { ExceptionHandlers } from "./exception-handlers.ts";
import type { FixedRoute } from "./fixed-routes.ts";
import { RouteTable, type RouteTarget } from "./route-table.ts";
import type { RouteUrls } from "./route-urls.ts";
import { EndpointRunner } from "./run-endpoint.ts";

/**
 * Whether a route that reads a JSON body first reads this request's ahead: of a JSON media type and
 * without a content coding. Any other goes the route's usual way, which answers it 415 unread.
 */
function readsJsonBodyOf(request: HttpRequest): boolean {
  return acceptsJsonMediaType(request.contentType) && request.header("content-encoding") === undefined;
}

/** What answering requests needs, made once by the app. */
export interface RequestHandlerOptions {
  exceptionHandlers: ExceptionHandlers;
  resolveOptions: ResolveOptions;
  errorLogger: ErrorLogger;
  accessLog: AccessLog;
  /** Runs what requests queue with `afterResponse()`. */
  work: AfterResponseWork;
  /** True adds the error and its stack to 500 answers. */
  debug: boolean;
  /** True validates answers against their models with Zod before sending (`RESPONSES`). */
  strictResponses: boolean;
  /** The app's middleware, around every route, outermost first. */
  middleware: readonly Middleware[];
  /**
   * The error for a request no HTTP route takes that is a WebSocket upgrade the server that brought
   * it could not open (a bare `app.fetch`, Node's handler without `upgrade`): said instead of a 404.
   */
  unservedUpgrade?: (request: HttpRequest) => Error | undefined;
}

/**
 * A request's life inside the app, whatever adapter brought it: its id, the route and method
 * (404, 405), the parameters, the endpoint's handler, and the exception handlers for whatever fails
 * on the way. Callbacks rather than promises up to the handler: a JSON body costs no turn of the
 * microtask queue, and an endpoint that awaits nothing answers synchronously.
 */
export class RequestHandler {
  private readonly routes: RouteTable;
  private readonly exceptionHandlers: ExceptionHandlers;
  private readonly errorLogger: ErrorLogger;
  private readonly accessLog: AccessLog;
  private readonly work: AfterResponseWork;
  private readonly debug: boolean;
  private readonly endpoints: EndpointRunner;
  private readonly unservedUpgrade: RequestHandlerOptions["unservedUpgrade"];
  /** How parameters are read: the WebSocket upgrades resolve theirs the same way. */
  readonly resolveOptions: ResolveOptions;

  constructor(options: RequestHandlerOptions) {
    this.exceptionHandlers = options.exceptionHandlers;
    this.errorLogger = options.errorLogger;
    this.accessLog = options.accessLog;
    this.work = options.work;
    this.debug = options.debug;
    this.resolveOptions = options.resolveOptions;
    this.unservedUpgrade = options.unservedUpgrade;
    this.endpoints = new EndpointRunner({
      resolveOptions: options.resolveOptions,
      errorLogger: options.errorLogger,
      strictResponses: options.strictResponses,
      handleError: (error, request) => this.handleError(error, request),
      internalError: (error, request) => this.internalError(error, request),
    });
    this.routes = new RouteTable({
      middleware: options.middleware,
      handleError: (error, request) => this.handleError(error, request),
      errorLogger: options.errorLogger,
      endpointAnswer: (description, request) => this.endpointAnswer(description, request),
    });
  }

  /** The path of each route by its name (`app.urlPathFor`, `request.urlFor`). */
  get urls(): RouteUrls {
    return this.routes.urls;
  }

  /**
   * Serves a built route at its path, for each of its methods, inside its middleware (and the app's,
   * unless `appMiddleware` is false).
   */
  register(route: BuiltRoute, appMiddleware = true): void {
    this.routes.register(route, appMiddleware);
  }

  /**
   * Answers one request. Never throws: every error becomes a response through the exception
   * handlers, and an error inside a handler becomes a plain 500, as does a response whose headers
   * no adapter could write. Gives the request its id, echoes it in `x-request-id`, and writes the
   * access log record. Synchronous when nothing is awaited. Work the request queued with
   * `afterResponse()` (and the end of its generator dependencies) starts once the caller has the
   * response, unless `startWork` is false: then the caller starts it with `startWork()` once the
   * body is sent (the test client, after reading it).
   */
  handle(request: HttpRequest, startWork = true): HttpResponse | Promise<HttpResponse> {
    const started = this.begin(request);
    let answered: HttpResponse | undefined;
    let deliver: ((response: HttpResponse) => void) | undefined;
    this.respond(request, (response) => {
      const finished = this.writable(this.accessLog.finish(request, response, started), request);
      if (startWork && request.afterResponseTasks !== undefined) {
        queueMicrotask(() => this.work.start(request));
      }
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

  /**
   * The routes at paths without placeholders, each answering a request a server matched to it
   * itself, as `handle(request, false)` would (see FixedRoute). Made once, when a server starts.
   */
  fixedRoutes(): FixedRoute[] {
    return this.routes.fixedTargets().map(({ path, method, target }) => ({
      path,
      method,
      readsJsonFirst:
        target.chain === undefined && EndpointRunner.readsJsonFirst(target.route.endpointDescription),
      readsBodyOf: readsJsonBodyOf,
      answer: (request: HttpRequest) => this.handleAt(target, request, this.begin(request)),
      begin: (request: HttpRequest) => this.begin(request),
      answerBegun: (request: HttpRequest, started: number) => this.handleAt(target, request, started),
    }));
  }

  /**
   * `handle(request, false)` for a request already matched to `target` (its method, at a path
   * without placeholders): no router, and, for an endpoint without body, dependencies, rate limit
   * or middleware, no callback between its parameters and its answer.
   */
  private handleAt(
    target: RouteTarget,
    request: HttpRequest,
    started: number,
  ): HttpResponse | Promise<HttpResponse> {
    const refused = hostRefusal(request.header("host"));
    const response =
      refused !== undefined
        ? this.handleError(refused, request)
        : target.chain === undefined
          ? this.endpoints.answerNow(target.route.endpointDescription, request)
          : target.chain(request);
    if (response instanceof Promise) {
      return response.then(
        (ready) => this.writable(this.accessLog.finish(request, ready, started), request),
        (error) =>
          this.writable(this.accessLog.finish(request, this.internalError(error, request), started), request),
      );
    }
    return this.writable(this.accessLog.finish(request, response, started), request);
  }

  /** Starts the work a request queued with `afterResponse()`, once its answer is sent (if it queued any). */
  startWork(request: HttpRequest): void {
    if (request.afterResponseTasks !== undefined) this.work.start(request);
  }

  /** Gives the request its id; returns the access log's start time. */
  begin(request: HttpRequest): number {
    request.id = requestIdFrom(request.header(REQUEST_ID_HEADER));
    return this.accessLog.start();
  }

  /** Writes the access log record of a request the server refused before it reached the app. */
  refused(request: RefusedRequest): void {
    this.accessLog.refused(request);
  }

  /** Writes the access log record of an answered request and echoes its id. */
  finish(request: HttpRequest, response: HttpResponse, started: number): HttpResponse {
    return this.accessLog.finish(request, response, started);
  }

  /**
   * The Host check (a 400 for two Host lines or one that is not host[:port]; with `hostRequired`, an
   * HTTP/1.1 request on a server that leaves it to the app, for none at all), routing, parameters,
   * the endpoint's handler, and the exception handlers for what fails; the response goes to `done`, once.
   */
  respond(request: HttpRequest, done: (response: HttpResponse) => void, hostRequired = false): void {
    // A Host the app cannot trust (two lines, or not host[:port]) is refused before anything else.
    const refused = hostRefusal(request.header("host"), hostRequired);
    if (refused !== undefined) {
      this.settle(this.handleError(refused, request), request, done);
      return;
    }
    let target: RouteTarget;
    try {
      target = this.routes.targetFor(request);
    } catch (error) {
      const said = error instanceof NotFoundError ? (this.unservedUpgrade?.(request) ?? error) : error;
      this.settle(this.routes.unrouted(said, request), request, done);
      return;
    }
    if (target.chain === undefined) this.endpoints.answer(target.route.endpointDescription, request, done);
    else this.settle(target.chain(request), request, done);
  }

  /** The endpoint's answer as a value or a promise: the innermost `next` of a route's middleware. */
  private endpointAnswer(
    description: EndpointDescription,
    request: HttpRequest,
  ): HttpResponse | Promise<HttpResponse> {
    return this.endpoints.answerLater(description, request);
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

  /** Turns an error into a response with the nearest exception handler; 500 when none applies. */
  handleError(error: unknown, request: HttpRequest): HttpResponse | Promise<HttpResponse> {
    try {
      const handler = this.exceptionHandlers.find(error);
      if (handler === undefined) return this.internalError(error, request);
      const response = handler.handle(error, request);
      if (response instanceof Promise) {
        return response
          .then((resolved) =>
            readyResponse(checkedResponse(resolved, "an exception handler"), request, this.errorLogger),
          )
          .catch((failure: unknown) => this.internalError(failure, request));
      }
      const ready = readyResponse(
        checkedResponse(response, "an exception handler"),
        request,
        this.errorLogger,
      );
      return ready instanceof Promise
        ? ready.catch((failure: unknown) => this.internalError(failure, request))
        : ready;
    } catch (failure) {
      return this.internalError(failure, request);
    }
  }

  /** The 500 for an error nothing handled, logged with the request id; its stack only with DEBUG. */
  private internalError(error: unknown, request: HttpRequest | undefined): HttpResponse {
    // The last answer of all: a logger that throws here must not become a second error.
    try {
      this.errorLogger.error(
        { err: error, reqId: request?.id, method: request?.method, path: request?.path },
        "Unhandled error while answering a request",
      );
    } catch {}
    if (this.exceptionHandlers.problems) return internalErrorProblem(request, error, this.debug);
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
  unwritable(error: unknown, request: HttpRequest): HttpResponse {
    return this.accessLog.finish(request, this.internalError(error, request), -1);
  }
}
