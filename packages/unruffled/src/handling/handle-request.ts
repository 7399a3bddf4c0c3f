import { checkedResponse } from "../http/checked-response.ts";
import { EventStreamResponse } from "../http/event-stream-response.ts";
import type { Middleware } from "../http/middleware.ts";
import type { HttpRequest } from "../http/request.ts";
import { checkedStatus, checkHeaders, type HttpResponse, JsonResponse } from "../http/response.ts";
import type { ResponseDraft } from "../http/response-draft.ts";
import { type AccessLog, REQUEST_ID_HEADER } from "../logging/access-log.ts";
import type { ErrorLogger } from "../logging/logger.ts";
import { requestIdFrom } from "../logging/request-id.ts";
import type { BuiltRoute } from "../route/analyse/build-routes.ts";
import type { EndpointDescription } from "../route/description.ts";
import type { DependencyScope } from "../route/resolve/dependency-scope.ts";
import { resolveDependencies } from "../route/resolve/resolve-dependencies.ts";
import { type ResolveOptions, resolveParams } from "../route/resolve/resolve-params.ts";
import type { AfterResponseWork } from "./after-response.ts";
import { writeThroughModel } from "./declared-response.ts";
import type { ExceptionHandlers } from "./exception-handlers.ts";
import { RouteTable, type RouteTarget } from "./route-table.ts";

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
  private readonly resolveOptions: ResolveOptions;
  private readonly errorLogger: ErrorLogger;
  private readonly accessLog: AccessLog;
  private readonly work: AfterResponseWork;
  private readonly debug: boolean;
  private readonly strictResponses: boolean;

  constructor(options: RequestHandlerOptions) {
    this.exceptionHandlers = options.exceptionHandlers;
    this.resolveOptions = options.resolveOptions;
    this.errorLogger = options.errorLogger;
    this.accessLog = options.accessLog;
    this.work = options.work;
    this.debug = options.debug;
    this.strictResponses = options.strictResponses;
    this.routes = new RouteTable({
      middleware: options.middleware,
      handleError: (error, request) => this.handleError(error, request),
      endpointAnswer: (description, request) => this.endpointAnswer(description, request),
    });
  }

  /** Serves a built route at its path, for each of its methods, inside its middleware. */
  register(route: BuiltRoute): void {
    this.routes.register(route);
  }

  /**
   * Answers one request. Never throws: every error becomes a response through the exception
   * handlers, and an error inside a handler becomes a plain 500, as does a response whose headers
   * no adapter could write. Gives the request its id, echoes it in `x-request-id`, and writes the
   * access log record. Synchronous when nothing is awaited. Work the request queued with
   * `afterResponse()` starts once the caller has the response.
   */
  handle(request: HttpRequest): HttpResponse | Promise<HttpResponse> {
    const started = this.begin(request);
    let answered: HttpResponse | undefined;
    let deliver: ((response: HttpResponse) => void) | undefined;
    this.respond(request, (response) => {
      const finished = this.writable(this.accessLog.finish(request, response, started), request);
      if (request.afterResponseTasks !== undefined) queueMicrotask(() => this.work.start(request));
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
  begin(request: HttpRequest): number {
    request.id = requestIdFrom(request.headers[REQUEST_ID_HEADER]);
    return this.accessLog.start();
  }

  /** Writes the access log record of an answered request and echoes its id. */
  finish(request: HttpRequest, response: HttpResponse, started: number): HttpResponse {
    return this.accessLog.finish(request, response, started);
  }

  /**
   * Routing, parameters, the endpoint's handler, and the exception handlers for what fails; the
   * response goes to `done`, once.
   */
  respond(request: HttpRequest, done: (response: HttpResponse) => void): void {
    let target: RouteTarget;
    try {
      target = this.routes.targetFor(request);
    } catch (error) {
      this.settle(this.routes.unrouted(error, request), request, done);
      return;
    }
    if (target.chain === undefined) this.answer(target.route.endpointDescription, request, done);
    else this.settle(target.chain(request), request, done);
  }

  /** Parameters, the endpoint's handler, and the exception handlers for what fails; to `done`, once. */
  private answer(
    description: EndpointDescription,
    request: HttpRequest,
    done: (response: HttpResponse) => void,
  ): void {
    if (description.dependencies === undefined) {
      resolveParams(description, request, this.resolveOptions, (error, values) => {
        const response =
          error === undefined ? this.run(description, request, values!) : this.handleError(error, request);
        this.settle(response, request, done);
      });
      return;
    }
    resolveDependencies(description, request, this.resolveOptions, (error, values, scope, draft) => {
      const response =
        error === undefined
          ? this.run(description, request, values!, scope, draft)
          : this.handleError(error, request);
      this.settle(response, request, done);
    });
  }

  /** The endpoint's answer as a value or a promise: the innermost `next` of a route's middleware. */
  private endpointAnswer(
    description: EndpointDescription,
    request: HttpRequest,
  ): HttpResponse | Promise<HttpResponse> {
    let answered: HttpResponse | undefined;
    let deliver: ((response: HttpResponse) => void) | undefined;
    this.answer(description, request, (response) => {
      if (deliver === undefined) answered = response;
      else deliver(response);
    });
    return (
      answered ??
      new Promise((resolve) => {
        deliver = resolve;
      })
    );
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

  /**
   * Calls the endpoint's handler with its values; what it throws or rejects with is handled, and
   * thrown into the request's generator dependencies when they close.
   */
  private run(
    description: EndpointDescription,
    request: HttpRequest,
    values: Record<string, unknown>,
    scope?: DependencyScope,
    draft?: ResponseDraft,
  ): HttpResponse | Promise<HttpResponse> {
    try {
      const response = description.endpoint.handler(request, values);
      if (response instanceof Promise) {
        return response.then(
          (resolved) => this.declared(resolved, description, request, scope, draft),
          (error) => {
            scope?.fail(error);
            return this.handleError(error, request);
          },
        );
      }
      return this.declared(response, description, request, scope, draft);
    } catch (error) {
      scope?.fail(error);
      return this.handleError(error, request);
    }
  }

  /**
   * The handler's answer, with what its dependencies added (`p.Response()`), written through its
   * route's models; what that throws is handled (and thrown into the request's generator
   * dependencies, as the handler's own errors are).
   */
  private declared(
    response: unknown,
    description: EndpointDescription,
    request: HttpRequest,
    scope: DependencyScope | undefined,
    draft: ResponseDraft | undefined,
  ): HttpResponse | Promise<HttpResponse> {
    try {
      const checked = checkedResponse(response, description.label);
      draft?.applyTo(checked);
      writeThroughModel(checked, description.answers, this.strictResponses);
      if (checked instanceof EventStreamResponse) this.logStreamFailure(checked, request);
      return checked;
    } catch (error) {
      scope?.fail(error);
      return this.handleError(error, request);
    }
  }

  /** A stream that fails once its answer began cannot become a 500: it is logged, and its connection closed. */
  private logStreamFailure(stream: EventStreamResponse, request: HttpRequest): void {
    stream.body.once("error", (error: unknown) => {
      // A web client that cancels its body is a client gone, not a failure.
      if ((error as Error).name === "AbortError") return;
      this.errorLogger.error(
        { err: error, reqId: request.id, method: request.method, path: request.path },
        "An event stream failed after its answer began; its connection was closed",
      );
    });
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

  /** The 500 for an error nothing handled, logged with the request id; its stack only with DEBUG. */
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
