import { checkedResponse, readyResponse } from "../http/checked-response.ts";
import type { Middleware, MiddlewareRoute } from "../http/middleware.ts";
import type { HttpRequest } from "../http/request.ts";
import type { HttpResponse } from "../http/response.ts";
import type { ErrorLogger } from "../logging/logger.ts";

/** A request's answer, as a value or a promise: what a composed chain, and its innermost `next`, give. */
export type Answer = (request: HttpRequest) => HttpResponse | Promise<HttpResponse>;

/** How what a middleware throws becomes an answer: the app's exception handlers. */
export type ErrorAnswer = (error: unknown, request: HttpRequest) => HttpResponse | Promise<HttpResponse>;

/**
 * Wraps `inner` in `middleware`, the first outermost. Done once per route when the app is built:
 * each middleware's `forRoute` is called here, so a request only makes plain calls.
 *
 * `errorLogger` hears of a streamed body a middleware returned that fails once its answer began.
 *
 * @example const chain = composeMiddleware([cors(options)], { path: "/items", methods: ["GET", "HEAD"] }, endpointAnswer, handleError, errorLogger);
 */
export function composeMiddleware(
  middleware: readonly Middleware[],
  route: MiddlewareRoute,
  inner: Answer,
  answerError: ErrorAnswer,
  errorLogger: ErrorLogger,
): Answer {
  let answer = inner;
  for (let index = middleware.length - 1; index >= 0; index--) {
    const layer = middleware[index]!;
    answer = wrap(layer.forRoute?.(route) ?? layer, answer, answerError, errorLogger);
  }
  return answer;
}

/** One middleware around the rest of the chain: what it throws, or returns that is no response, is answered. */
function wrap(
  middleware: Middleware,
  next: Answer,
  answerError: ErrorAnswer,
  errorLogger: ErrorLogger,
): Answer {
  const who = `the middleware ${middleware.name || "(anonymous)"}`;
  return (request) => {
    // `await next()` without the request, as Koa, Hono and Express users write, goes on with this one.
    const nextOfRequest = (given?: HttpRequest) => next(given ?? request);
    try {
      const response = middleware(request, nextOfRequest);
      if (response instanceof Promise) {
        return response
          .then((resolved) => readyResponse(checkedResponse(resolved, who), request, errorLogger))
          .catch((error: unknown) => answerError(error, request));
      }
      const ready = readyResponse(checkedResponse(response, who), request, errorLogger);
      return ready instanceof Promise ? ready.catch((error: unknown) => answerError(error, request)) : ready;
    } catch (error) {
      return answerError(error, request);
    }
  };
}
