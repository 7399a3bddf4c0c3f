import { createApp, exceptionHandler, NotFoundError, RequestValidationError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

// Every answer is HTTP 200 with { code, message, data }; code 0 means success.
const BindRequest = z
  .object({ student_id: z.int().gt(0), course_id: z.int().gt(0) })
  .meta({ id: "BindRequest" });
const BindResponse = z
  .object({ code: z.int(), message: z.string(), data: z.object({ student_id: z.int(), course_id: z.int() }) })
  .meta({ id: "BindResponse" });
const ErrorEnvelope = z
  .object({ code: z.int(), message: z.string(), data: z.unknown() })
  .meta({ id: "ErrorEnvelope" });

class BusinessError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

const bind = endpoint({
  params: { body: p.Json(BindRequest) },
  returns: [p.ResponseSpec({ model: BindResponse })],
  handler(_request, { body }) {
    if (body.course_id === 99) throw new BusinessError(422, `Course ${body.course_id} is full`);
    return new JsonResponse({ code: 0, message: "success", data: body });
  },
});

const envelope = (code: number, message: string, data: unknown = null) =>
  new JsonResponse({ code, message, data });

export const app = createApp({
  settings: { OPENAPI: { info: { title: "Enrolment", version: "1.0.0" } } },
  routes: [path("/bind", { endpoint: bind, methods: ["POST"], name: "bind_course" })],
  exceptionHandlers: [
    // The document shows this 200 beside the endpoint's own: the handler's `responses` say what it answers.
    exceptionHandler(
      RequestValidationError,
      (error) => envelope(422, "Request validation failed", { errors: error.issues }),
      { responses: [p.ResponseSpec({ code: "200", model: ErrorEnvelope, description: "A failure" })] },
    ),
    exceptionHandler(BusinessError, (error) => envelope(error.code, error.message)),
    exceptionHandler(NotFoundError, (_error, request) => envelope(404, `No route ${request.path}`)),
  ],
});
