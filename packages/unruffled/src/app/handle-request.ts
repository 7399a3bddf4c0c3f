import { HttpError, MethodNotAllowedError, NotFoundError } from "../errors.ts";
import { EventStreamResponse } from "../http/event-stream-response.ts";
import type { HttpRequest } from "../http/request.ts";
import { checkedStatus, checkHeaders, HttpResponse, JsonResponse } from "../http/response.ts";
import type { BuiltRoute } from "../route/build-routes.ts";
import type { EndpointDescription } from "../route/description.ts";
import { type ResolveOptions, resolveParams } from "../route/resolve-params.ts";
import { Router } from "../route/router.ts";
import { type AccessLog, REQUEST_ID_HEADER } from "./access-log.ts";
import type { AfterResponseWork } from "./after-response.ts";
import { writeThroughModel } from "./declared-response.ts";
import type { ExceptionHandlers } from "./exception-handlers.ts";
import { requestIdFrom } from "./request-id.ts";

/** Where the app reports errors it answered with 500. A pino logger is one. */
export interface ErrorLogger {
  error(details: Record<string, unknown>, message: string): void;
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
}

/**
 * A request's life inside the app, whatever adapter brought it: its id, the route and method
 * (404, 405), the parameters, the endpoint's handler, and the exception handlers for whatever fails
 * on the way. Callbacks rather than promises up to the handler: a JSON body costs no turn of the
 * microtask queue, and an endpoint that awaits nothing answers synchronously.
 */
export class RequestHandler {
  private readonly router = new Router<BuiltRoute>();
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
  }

  /** Serves a built route at its path, for each of its methods. */
  register(route: BuiltRoute): void {
    for (const method of route.methods) {
      if (!this.router.add(method, route.path, route)) {
        throw new HttpError(500, `Two routes answer ${method} ${route.path}`);
      }
    }
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
    const route =
      match.methods.get(request.method) ?? (request.method === "HEAD" ? match.methods.get("GET") : undefined);
    if (route === undefined) throw new MethodNotAllowedError(withHead(match.allow));
    if (match.params !== undefined) request.pathParams = decodeParams(match.params);
    return route.endpointDescription;
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
          (resolved) => this.declared(resolved, description, request),
          (error) => this.handleError(error, request),
        );
      }
      return this.declared(response, description, request);
    } catch (error) {
      return this.handleError(error, request);
    }
  }

  /** The handler's answer, written through its route's models; what that throws is handled. */
  private declared(
    response: unknown,
    description: EndpointDescription,
    request: HttpRequest,
  ): HttpResponse | Promise<HttpResponse> {
    try {
      const checked = checkedResponse(response, description.label);
      writeThroughModel(checked, description.serializers, this.strictResponses);
      if (checked instanceof EventStreamResponse) this.logStreamFailure(checked, request);
      return checked;
    } catch (error) {
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
