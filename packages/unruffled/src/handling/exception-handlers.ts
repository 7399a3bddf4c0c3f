import { HttpError, RequestValidationError } from "../errors.ts";
import type { HttpRequest } from "../http/request.ts";
import { type HttpResponse, JsonResponse } from "../http/response.ts";
import { HttpValidationErrorSchema } from "../openapi/operation/error-schemas.ts";
import { HttpProblem } from "../problem/http-problem.ts";
import {
  asProblemSpec,
  httpErrorProblem,
  VALIDATION_PROBLEM_SPEC,
  validationProblem,
} from "../problem/problem-handlers.ts";
import { ResponseSpec } from "../route/declare/response-spec.ts";

export type ErrorClass<E = unknown> = abstract new (...args: any[]) => E;

export type ExceptionHandlerFunction<E> = (
  error: E,
  request: HttpRequest,
) => HttpResponse | Promise<HttpResponse>;

/** An exception handler with the responses it produces, so that the document describes them. */
export interface ExceptionHandler<E = any> {
  error: ErrorClass<E>;
  handle: ExceptionHandlerFunction<E>;
  /** What the handler answers, for the OpenAPI document (one entry per status code). */
  responses: readonly ResponseSpec[];
}

/**
 * Declares how an error class becomes a response. The nearest handler up the class chain wins.
 *
 * @example
 * exceptionHandler(RequestValidationError, (error) =>
 *   new JsonResponse({ code: 422, message: "invalid request", data: { errors: error.issues } }),
 *   { responses: [p.ResponseSpec({ code: "200", model: ErrorEnvelope })] })
 */
export function exceptionHandler<E>(
  error: ErrorClass<E>,
  handle: ExceptionHandlerFunction<E>,
  options: { responses?: readonly ResponseSpec[] } = {},
): ExceptionHandler<E> {
  return { error, handle, responses: options.responses ?? [] };
}

/** The default for request validation: 422 `{"detail": [{loc, msg, type, input}, …]}`. */
export const validationErrorHandler = exceptionHandler(
  RequestValidationError,
  (error) => new JsonResponse({ detail: error.issues }, { status: 422 }),
  {
    responses: [
      new ResponseSpec({ code: "422", model: HttpValidationErrorSchema, description: "Validation Error" }),
    ],
  },
);

/** The default for HTTP errors: their status and `{"detail": message}`. */
export const httpErrorHandler = exceptionHandler(
  HttpError,
  (error) =>
    new JsonResponse({ detail: error.message }, { status: error.status, headers: { ...error.headers } }),
);

/** An `HttpProblem` is problem details in either format: the app chose its shape. */
const httpProblemHandler = exceptionHandler(HttpProblem, httpErrorProblem);

/** `ERRORS.format: "problem"`: every HTTP error as problem details, its headers kept. */
const problemHttpErrorHandler = exceptionHandler(HttpError, httpErrorProblem);

/** `ERRORS.format: "problem"`: the 422 with each issue located by a JSON Pointer or a parameter. */
const problemValidationHandler = exceptionHandler(RequestValidationError, validationProblem, {
  responses: [VALIDATION_PROBLEM_SPEC],
});

/**
 * Looks handlers up by the error's class chain, remembering the answer per class. The defaults
 * follow `ERRORS.format`: `{"detail": …}`, or RFC 9457 problem details.
 */
export class ExceptionHandlers {
  /** True when the framework's own answers are problem details (`ERRORS.format: "problem"`). */
  readonly problems: boolean;
  private readonly byClass = new Map<Function, ExceptionHandler>();
  private readonly resolved = new Map<Function, ExceptionHandler | null>();
  private readonly defaultHttp: ExceptionHandler;

  constructor(handlers: readonly ExceptionHandler[], format: "detail" | "problem" = "detail") {
    this.problems = format === "problem";
    this.defaultHttp = (this.problems ? problemHttpErrorHandler : httpErrorHandler) as ExceptionHandler;
    const validation = this.problems ? problemValidationHandler : validationErrorHandler;
    for (const handler of [validation, this.defaultHttp, httpProblemHandler, ...handlers]) {
      this.byClass.set(handler.error, handler as ExceptionHandler);
    }
  }

  /** The handler for an error, or `undefined` when only the 500 fallback applies. */
  find(error: unknown): ExceptionHandler | undefined {
    if (typeof error !== "object" || error === null) return undefined;
    return this.handling((error as object).constructor);
  }

  /**
   * What the handler of an error class documents, for the OpenAPI document; `fallback` when the
   * default HTTP error handler answers it (it documents no status of its own).
   */
  responsesFor(
    errorClass: Function,
    fallback: readonly ResponseSpec[],
    problemFallback?: readonly ResponseSpec[],
  ): readonly ResponseSpec[] {
    const handler = this.handling(errorClass);
    if (handler === undefined) return [];
    if (handler !== this.defaultHttp) return handler.responses;
    if (!this.problems) return fallback;
    return problemFallback ?? fallback.map(asProblemSpec);
  }

  /** The nearest handler up the class chain, remembered per class. */
  private handling(errorClass: Function): ExceptionHandler | undefined {
    let handler = this.resolved.get(errorClass);
    if (handler === undefined) {
      handler = null;
      for (
        let current: unknown = errorClass;
        typeof current === "function";
        current = Object.getPrototypeOf(current)
      ) {
        const found = this.byClass.get(current);
        if (found) {
          handler = found;
          break;
        }
      }
      this.resolved.set(errorClass, handler);
    }
    return handler ?? undefined;
  }

  /** Every handler in force, the defaults first, each class once. */
  all(): ExceptionHandler[] {
    return [...this.byClass.values()];
  }

  /** The handler registered for exactly this class (the app's own, or the default). */
  forClass(errorClass: Function): ExceptionHandler | undefined {
    return this.byClass.get(errorClass);
  }
}
