import {
  exceptionHandler,
  HttpError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  RequestValidationError,
  UnsupportedMediaTypeError,
} from "unruffled";
import type { HttpRequest } from "unruffled/http";
import { JsonResponse } from "unruffled/http";
import { p } from "unruffled/route";
import { BusinessError } from "./business-error.ts";
import { ErrorResponse } from "./schemas.ts";

/** The prefix under which every answer is HTTP 200 with `{ code, message, data }`. */
const API_PREFIX = "/api/enroll";

const documented = {
  responses: [
    p.ResponseSpec({ code: "200", model: ErrorResponse, description: "A failure, in the envelope" }),
  ],
};

function envelope(
  code: number,
  message: string,
  data: unknown = null,
  headers: Record<string, string | readonly string[]> = {},
): JsonResponse {
  const response = new JsonResponse({ code, message, data }, { headers });
  // A failure is HTTP 200 here: the access log records its code beside the status, so it shows.
  response.logFields = { code };
  return response;
}

function underApi(request: HttpRequest): boolean {
  return request.path === API_PREFIX || request.path.startsWith(`${API_PREFIX}/`);
}

/** Outside the API (the documentation pages), errors keep their HTTP status. */
function plain(status: number, message: string, headers: Record<string, string> = {}): JsonResponse {
  return new JsonResponse({ detail: message }, { status, headers });
}

/** Logs what went wrong without ever sending it to the client. */
export interface InternalErrorLog {
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * The enrollment convention (spec: every `/api/enroll/*` answer is HTTP 200 and the outcome is in
 * `code`) as exception handlers, so endpoints simply throw.
 */
export function errorEnvelopes(log: InternalErrorLog) {
  return [
    exceptionHandler(
      RequestValidationError,
      (error, request) =>
        underApi(request)
          ? envelope(422, "Request validation failed", { errors: error.issues })
          : plain(422, error.message),
      documented,
    ),
    exceptionHandler(BusinessError, (error) => envelope(error.code, error.message), documented),
    exceptionHandler(NotFoundError, (error, request) =>
      underApi(request)
        ? envelope(404, `No route ${request.method} ${request.path}`)
        : plain(404, error.message),
    ),
    // The envelope keeps the Allow header that HTTP asks of every 405.
    exceptionHandler(MethodNotAllowedError, (error, request) =>
      underApi(request)
        ? envelope(405, `Method ${request.method} not allowed; allowed: ${error.allowed.join(", ")}`, null, {
            ...error.headers,
          })
        : plain(405, error.message, { ...error.headers }),
    ),
    exceptionHandler(PayloadTooLargeError, (error, request) =>
      underApi(request) ? envelope(413, `${error.message}`) : plain(413, error.message),
    ),
    // A body in another format is a malformed request here (spec: 400, wrong content type). Its
    // headers go along: the Accept-Encoding that says a body with a content coding is not read.
    exceptionHandler(UnsupportedMediaTypeError, (error, request) =>
      underApi(request)
        ? envelope(400, error.message, null, { ...error.headers })
        : plain(415, error.message, { ...error.headers }),
    ),
    // Its headers go along, such as a 401's WWW-Authenticate.
    exceptionHandler(
      HttpError,
      (error, request) =>
        underApi(request)
          ? envelope(error.status, error.message, null, { ...error.headers })
          : plain(error.status, error.message, { ...error.headers }),
      documented,
    ),
    exceptionHandler(Error, (error, request) => {
      log.error(
        { err: error, reqId: request.id, method: request.method, path: request.path },
        "Internal error",
      );
      return underApi(request) ? envelope(500, "Internal server error") : plain(500, "Internal Server Error");
    }),
  ];
}
