import type { HttpError, ProblemMembers, RequestValidationError, ValidationIssue } from "../errors.ts";
import type { HttpRequest } from "../http/request.ts";
import type { JsonResponse } from "../http/response.ts";
import { ResponseSpec } from "../route/declare/response-spec.ts";
import { HttpProblem } from "./http-problem.ts";
import {
  ABOUT_BLANK,
  PROBLEM_JSON,
  type ProblemDetails,
  problemResponse,
  statusTitle,
} from "./problem-details.ts";
import { ProblemDetailsSchema, ValidationProblemSchema } from "./problem-schemas.ts";

/** The problem details of an HTTP error: its own (`HttpProblem`), its type's, or `about:blank`. */
export function problemOf(error: HttpError, request: HttpRequest): ProblemDetails {
  if (error instanceof HttpProblem) return { ...error.problem, instance: request.id };
  const members = (error as Partial<ProblemMembers>).problemMembers;
  const title = statusTitle(error.status);
  const problem: ProblemDetails = { type: ABOUT_BLANK, title, status: error.status, detail: error.message };
  if (members !== undefined) Object.assign(problem, members);
  problem.instance = request.id;
  return problem;
}

/**
 * An HTTP error as problem details, its headers kept: what `ERRORS.format: "problem"` answers for
 * every HTTP error, and an `HttpProblem` in either format.
 */
export function httpErrorProblem(error: HttpError, request: HttpRequest): JsonResponse {
  return problemResponse(problemOf(error, request), error.headers);
}

/** `ERRORS.format: "problem"`: the 422 with each issue located by a JSON Pointer or a parameter. */
export function validationProblem(error: RequestValidationError, request: HttpRequest): JsonResponse {
  return problemResponse({
    type: ABOUT_BLANK,
    title: statusTitle(422),
    status: 422,
    detail: `The request has ${error.issues.length === 1 ? "1 invalid value" : `${error.issues.length} invalid values`}`,
    instance: request.id,
    errors: error.issues.map(problemIssue),
  });
}

/** How `validationProblem` answers, for the OpenAPI document. */
export const VALIDATION_PROBLEM_SPEC = new ResponseSpec({
  code: "422",
  model: ValidationProblemSchema,
  content_type: PROBLEM_JSON,
  description: "Validation Error",
});

/** `["body", "tags", 1]` → `{ pointer: "#/tags/1" }`; `["query", "page"]` → `{ in: "query", parameter: "page" }`. */
export function problemIssue(issue: ValidationIssue): Record<string, string> {
  const [location, name, ...rest] = issue.loc;
  const located: Record<string, string> = { detail: issue.msg, code: issue.type };
  if (location === "body") {
    located.pointer = pointerOf(name === undefined ? [] : [name, ...rest]);
  } else {
    located.in = String(location);
    if (name !== undefined) located.parameter = String(name);
    if (rest.length > 0) located.pointer = pointerOf(rest);
  }
  return located;
}

/** A JSON Pointer as a URI fragment (RFC 6901 §6), as RFC 9457's examples write them. */
function pointerOf(segments: readonly (string | number)[]): string {
  let pointer = "#";
  for (const segment of segments) {
    pointer += `/${encodeURIComponent(String(segment).replaceAll("~", "~0").replaceAll("/", "~1"))}`;
  }
  return pointer;
}

/** The 500 as problem details; with DEBUG, the error too (never in production). */
export function internalErrorProblem(
  request: HttpRequest | undefined,
  error: unknown,
  debug: boolean,
): JsonResponse {
  const problem: ProblemDetails = { type: ABOUT_BLANK, title: statusTitle(500), status: 500 };
  if (request?.id) problem.instance = request.id;
  if (debug && error instanceof Error) {
    problem.error = { name: error.name, message: error.message, stack: error.stack };
  }
  return problemResponse(problem);
}

/** The problem form of a framework error's documented answer (401, 403, 413, 415, 429…). */
export function asProblemSpec(spec: ResponseSpec): ResponseSpec {
  return new ResponseSpec({
    code: spec.code,
    model: ProblemDetailsSchema,
    content_type: PROBLEM_JSON,
    description: spec.description,
    headers: spec.headers,
  });
}
