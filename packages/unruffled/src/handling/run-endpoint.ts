import { checkedResponse, readyResponse } from "../http/checked-response.ts";
import { EventStreamResponse } from "../http/event-stream-response.ts";
import { FileResponse } from "../http/file-response.ts";
import type { HttpRequest } from "../http/request.ts";
import type { HttpResponse } from "../http/response.ts";
import type { ResponseDraft } from "../http/response-draft.ts";
import { StreamingResponse } from "../http/streaming-response.ts";
import type { ErrorLogger } from "../logging/logger.ts";
import type { Check } from "../rate-limit/gcra.ts";
import type { RouteLimiter } from "../rate-limit/route-limiter.ts";
import { type Decisions, keptDecisions } from "../rate-limit/store.ts";
import type { EndpointDescription } from "../route/description.ts";
import { CLEAN, type DependencyScope } from "../route/resolve/dependency-scope.ts";
import { resolveDependencies, type ValuesCallback } from "../route/resolve/resolve-dependencies.ts";
import { type ResolveOptions, resolveParams, resolveParamsNow } from "../route/resolve/resolve-params.ts";
import { writeThroughModel } from "./declared-response.ts";

type Answer = HttpResponse | Promise<HttpResponse>;

/** What running an endpoint needs from the request handler. */
export interface EndpointRunnerOptions {
  resolveOptions: ResolveOptions;
  errorLogger: ErrorLogger;
  /** True validates answers against their models with Zod before sending (`RESPONSES`). */
  strictResponses: boolean;
  /** The exception handlers: an error becomes a response, never throws. */
  handleError(error: unknown, request: HttpRequest): Answer;
  /** The 500 for what a promise of an answer rejected with. */
  internalError(error: unknown, request: HttpRequest): HttpResponse;
}

/**
 * One endpoint's part of a request: its parameters and dependencies, its handler, its answer
 * through the declared models, and the end of its generator dependencies that comes before the
 * answer (`DependencyScope`): on a failure each gets the error first, and may translate it; on
 * success those of scope `"function"` end. A route without generators pays nothing for them.
 */
export class EndpointRunner {
  private readonly options: EndpointRunnerOptions;
  private readonly resolveOptions: ResolveOptions;
  private readonly strictResponses: boolean;

  constructor(options: EndpointRunnerOptions) {
    this.options = options;
    this.resolveOptions = options.resolveOptions;
    this.strictResponses = options.strictResponses;
  }

  /** Parameters, the handler, and the exception handlers for what fails; the answer to `done`, once. */
  answer(
    description: EndpointDescription,
    request: HttpRequest,
    done: (response: HttpResponse) => void,
  ): void {
    if (description.rateLimiter !== undefined) {
      this.answerLimited(description, description.rateLimiter, request, done);
      return;
    }
    if (description.dependencies === undefined) {
      resolveParams(description, request, this.resolveOptions, (error, values) => {
        const response =
          error === undefined
            ? this.run(description, request, values!)
            : this.options.handleError(error, request);
        this.settle(response, request, done);
      });
      return;
    }
    resolveDependencies(description, request, this.resolveOptions, (error, values, scope, draft) => {
      const response =
        error === undefined
          ? this.run(description, request, values!, scope, draft)
          : this.failed(error, request, scope);
      this.settle(response, request, done);
    });
  }

  /**
   * The same answer as `answer()`, returned: for an endpoint without body, dependencies or rate
   * limit straight from its parameters to its handler, with no callback; otherwise through
   * `answer()`. Never rejects.
   */
  answerNow(description: EndpointDescription, request: HttpRequest): Answer {
    if (
      description.rateLimiter !== undefined ||
      description.dependencies !== undefined ||
      description.bodyFormat !== undefined
    ) {
      return this.answerLater(description, request);
    }
    let values: Record<string, unknown>;
    try {
      values = resolveParamsNow(description, request, this.resolveOptions);
    } catch (error) {
      return this.guarded(this.options.handleError(error, request), request);
    }
    return this.guarded(this.run(description, request, values), request);
  }

  /**
   * Whether the endpoint's first step is reading a JSON body (after its media type): no rate limit
   * or dependencies come before it. Such an endpoint answers at once once its body is held
   * (`BodySource.collectHeldText`).
   */
  static readsJsonFirst(description: EndpointDescription): boolean {
    return (
      description.bodyFormat === "json" &&
      description.validator !== undefined &&
      description.rateLimiter === undefined &&
      description.dependencies === undefined
    );
  }

  /** `answer()` as a value or a promise of it. */
  answerLater(description: EndpointDescription, request: HttpRequest): Answer {
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

  /** An answer whose promise, should it reject, becomes the 500 (as `settle` makes it). */
  private guarded(response: Answer, request: HttpRequest): Answer {
    if (response instanceof Promise)
      return response.catch((error) => this.options.internalError(error, request));
    return response;
  }

  /**
   * A limited route: once its schemes, parameters and dependencies are resolved (so the principal
   * is known), the store counts the request, whatever its outcome; a request past a limit is
   * answered 429 without running the handler, and one that failed on the way gets its own error.
   * Every answer carries the rate-limit headers. No closure when the parameters are read at once,
   * else one that only forwards: the rest is methods, so that a limit costs its store and its
   * headers and little else.
   */
  private answerLimited(
    description: EndpointDescription,
    limiter: RouteLimiter,
    request: HttpRequest,
    done: (response: HttpResponse) => void,
  ): void {
    if (description.dependencies === undefined && description.bodyFormat === undefined) {
      // Nothing to wait for: the parameters are read at once, without a callback.
      let values: Record<string, unknown> | undefined;
      let error: unknown;
      try {
        values = resolveParamsNow(description, request, this.resolveOptions);
      } catch (failure) {
        error = failure;
      }
      this.limitResolved(description, limiter, request, done, error, values, undefined, undefined, undefined);
      return;
    }
    const resolved: ValuesCallback = (error, values, scope, draft, results) =>
      this.limitResolved(description, limiter, request, done, error, values, scope, draft, results);
    if (description.dependencies === undefined)
      resolveParams(description, request, this.resolveOptions, resolved);
    else resolveDependencies(description, request, this.resolveOptions, resolved);
  }

  /** A limited request whose schemes, parameters and dependencies are resolved (or failed). */
  private limitResolved(
    description: EndpointDescription,
    limiter: RouteLimiter,
    request: HttpRequest,
    done: (response: HttpResponse) => void,
    error: unknown,
    values: Record<string, unknown> | undefined,
    scope: DependencyScope | undefined,
    draft: ResponseDraft | undefined,
    results: readonly unknown[] | undefined,
  ): void {
    const principal = limiter.principalIndex < 0 ? undefined : results?.[limiter.principalIndex];
    let checks: readonly Check[];
    try {
      checks = limiter.checksOf(request, principal);
    } catch (failure) {
      // A key or cost function that throws is the app's error (a 500), not the store's.
      this.settleLimited(this.failed(failure, request, scope), limiter, undefined, request, done);
      return;
    }
    let decisions: Decisions | Promise<Decisions>;
    try {
      decisions = limiter.consume(checks);
    } catch (failure) {
      const answer = this.afterLimit(
        limiter.storeFailed(failure, request),
        description,
        request,
        error,
        values,
        scope,
        draft,
      );
      this.settleLimited(answer, limiter, undefined, request, done);
      return;
    }
    if (decisions instanceof Promise) {
      decisions.then(
        (answer) =>
          this.settleLimited(
            this.afterLimit(limiter.refusal(answer), description, request, error, values, scope, draft),
            limiter,
            answer,
            request,
            done,
          ),
        (failure: unknown) =>
          this.settleLimited(
            this.afterLimit(
              limiter.storeFailed(failure, request),
              description,
              request,
              error,
              values,
              scope,
              draft,
            ),
            limiter,
            undefined,
            request,
            done,
          ),
      );
      return;
    }
    const answer = this.afterLimit(
      limiter.refusal(decisions),
      description,
      request,
      error,
      values,
      scope,
      draft,
    );
    this.settleLimited(answer, limiter, decisions, request, done);
  }

  /**
   * A limited request's answer: the limit's refusal (the 429, or the 503 of a store failing
   * closed), else the error met on the way, else the handler's.
   */
  private afterLimit(
    refusal: unknown,
    description: EndpointDescription,
    request: HttpRequest,
    error: unknown,
    values: Record<string, unknown> | undefined,
    scope: DependencyScope | undefined,
    draft: ResponseDraft | undefined,
  ): Answer {
    if (refusal !== undefined) return this.failed(refusal, request, scope);
    if (error !== undefined) return this.failed(error, request, scope);
    return this.run(description, request, values!, scope, draft);
  }

  /** `settle`, with the rate-limit headers written on the answer first. */
  private settleLimited(
    response: Answer,
    limiter: RouteLimiter,
    decisions: Decisions | undefined,
    request: HttpRequest,
    done: (response: HttpResponse) => void,
  ): void {
    if (response instanceof Promise) {
      // The store may reuse its answer for the next request while this one's handler runs.
      const kept = decisions === undefined ? undefined : keptDecisions(decisions);
      response.then(
        (resolved) => {
          limiter.writeHeaders(resolved, kept);
          done(resolved);
        },
        (error) => {
          const internal = this.options.internalError(error, request);
          limiter.writeHeaders(internal, kept);
          done(internal);
        },
      );
      return;
    }
    limiter.writeHeaders(response, decisions);
    done(response);
  }

  /** Hands a response, or the response a promise resolves to, to `done`. */
  private settle(response: Answer, request: HttpRequest, done: (response: HttpResponse) => void): void {
    if (response instanceof Promise) {
      response.then(done, (error) => done(this.options.internalError(error, request)));
    } else done(response);
  }

  /**
   * The answer to an error: the request's open generator dependencies get it first (the last
   * entered first) and may throw another in its place; the exception handlers answer the last one.
   */
  private failed(error: unknown, request: HttpRequest, scope: DependencyScope | undefined): Answer {
    if (scope === undefined || !scope.open) return this.options.handleError(error, request);
    return scope.unwind(error).then((last) => this.options.handleError(last, request));
  }

  /** Calls the endpoint's handler with its values; what it throws or rejects with is `failed`. */
  private run(
    description: EndpointDescription,
    request: HttpRequest,
    values: Record<string, unknown>,
    scope?: DependencyScope,
    draft?: ResponseDraft,
  ): Answer {
    try {
      const response = description.endpoint.handler(request, values);
      if (response instanceof Promise) {
        return response.then(
          (resolved) => this.afterHandler(resolved, description, request, scope, draft),
          (error) => this.failed(error, request, scope),
        );
      }
      // Most routes have no generator of scope "function": their answer is written at once.
      if (scope === undefined || !scope.functionScoped) {
        return this.declared(response, description, request, scope, draft);
      }
      return this.afterHandler(response, description, request, scope, draft);
    } catch (error) {
      return this.failed(error, request, scope);
    }
  }

  /** Ends the generators of scope `"function"` (before anything is written), then writes the answer. */
  private afterHandler(
    response: unknown,
    description: EndpointDescription,
    request: HttpRequest,
    scope: DependencyScope | undefined,
    draft: ResponseDraft | undefined,
  ): Answer {
    if (scope === undefined || !scope.functionScoped) {
      return this.declared(response, description, request, scope, draft);
    }
    return scope.closeFunctionScoped().then((outcome) => {
      if (outcome === CLEAN) return this.declared(response, description, request, scope, draft);
      // The answer the handler made is dropped: a stream it holds never starts, and its source is closed.
      if (response instanceof EventStreamResponse || response instanceof StreamingResponse) {
        response.body.destroy();
      }
      return this.failed(outcome, request, scope);
    });
  }

  /**
   * The handler's answer, with what its dependencies added (`p.Response()`), written through its
   * route's models; what that throws is `failed`, as the handler's own errors are.
   */
  private declared(
    response: unknown,
    description: EndpointDescription,
    request: HttpRequest,
    scope: DependencyScope | undefined,
    draft: ResponseDraft | undefined,
  ): Answer {
    try {
      const checked = checkedResponse(response, description.label);
      draft?.applyTo(checked);
      writeThroughModel(checked, description.answers, this.strictResponses);
      // A file is looked at, a stream's first chunk awaited, now: a failure there is the handler's
      // error, answered before any header; an event stream's later failure is logged.
      if (
        checked instanceof StreamingResponse ||
        checked instanceof FileResponse ||
        checked instanceof EventStreamResponse
      ) {
        const ready = readyResponse(checked, request, this.options.errorLogger);
        return ready instanceof Promise ? ready.catch((error) => this.failed(error, request, scope)) : ready;
      }
      return checked;
    } catch (error) {
      // A stream that will not be sent is closed: its source (a file, a generator) is released.
      if (response instanceof StreamingResponse) response.body.destroy();
      return this.failed(error, request, scope);
    }
  }
}
