import { JsonResponse } from "../http/response.ts";
import { STATUS_CODES } from "../node-builtins.ts";

/** The media type of an RFC 9457 problem details body. */
export const PROBLEM_JSON = "application/problem+json";

/** RFC 9457's type for a problem that means no more than its status: the title is the reason phrase. */
export const ABOUT_BLANK = "about:blank";

/**
 * An RFC 9457 problem details object: what went wrong (`type`, `title`), the status, this
 * occurrence (`detail`, `instance`: the request id), and any extension members of its type.
 */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  [extension: string]: unknown;
}

/** `ERRORS` settings: the shape of every answer the framework makes itself. */
export interface ErrorSettings {
  /**
   * `"detail"` (the default): `{"detail": …}` as FastAPI answers. `"problem"`: RFC 9457 problem
   * details, `application/problem+json`, with the request id as `instance`.
   */
  format?: "detail" | "problem";
}

/**
 * The error format in force, checked when the app is built.
 *
 * @example errorFormat({ format: "problem" }) // "problem"
 */
export function errorFormat(settings: ErrorSettings | undefined): "detail" | "problem" {
  const given = settings ?? {};
  for (const key of Object.keys(given)) {
    if (key !== "format") throw new TypeError(`Unknown ERRORS setting "${key}"; use format.`);
  }
  const format = given.format ?? "detail";
  if (format !== "detail" && format !== "problem") {
    throw new TypeError(
      `The ERRORS setting "format" must be "detail" or "problem", got ${JSON.stringify(format)}`,
    );
  }
  return format;
}

/** The reason phrase of a status, the title of its `about:blank` problem. */
export function statusTitle(status: number): string {
  return STATUS_CODES[status] ?? `Status ${status}`;
}

/**
 * A problem details answer: the body as given, `application/problem+json`, and the headers.
 *
 * @example problemResponse({ type: ABOUT_BLANK, title: "Not Found", status: 404, detail: "No item", instance: request.id })
 */
export function problemResponse(
  problem: ProblemDetails,
  headers?: Readonly<Record<string, string>>,
): JsonResponse<ProblemDetails> {
  return new JsonResponse(problem, {
    status: problem.status,
    headers:
      headers === undefined ? { "content-type": PROBLEM_JSON } : { ...headers, "content-type": PROBLEM_JSON },
  });
}
