import { z } from "zod";
import { HttpError } from "../errors.ts";
import { ResponseSpec } from "../route/declare/response-spec.ts";
import { PROBLEM_JSON, type ProblemDetails, statusTitle } from "./problem-details.ts";

/** The members a problem carries beyond RFC 9457's own. */
export type ProblemExtensions = Record<string, unknown>;

/**
 * An error answered as problem details (`application/problem+json`), whatever `ERRORS.format`
 * says: the app chose the shape of this one. The request id becomes its `instance`.
 *
 * @example throw new HttpProblem({ type: "https://example.org/problems/closed", title: "Closed", status: 409, detail: "The shop is closed" });
 */
export class HttpProblem extends HttpError {
  override name = "HttpProblem";
  /** The problem as it is sent, less `instance`, which each answer gets from its request. */
  readonly problem: ProblemDetails;

  constructor(
    problem: { type?: string; title?: string; status: number; detail?: string } & ProblemExtensions,
    headers: Record<string, string> = {},
  ) {
    const {
      type = "about:blank",
      title = statusTitle(problem.status),
      status,
      detail,
      ...extensions
    } = problem;
    super(status, detail ?? title, headers);
    // RFC 9457's members first, then the type's own, as a reader expects them.
    this.problem =
      detail === undefined
        ? { type, title, status, ...extensions }
        : { type, title, status, detail, ...extensions };
  }
}

/** A problem type an app declares: its URI, title, status and the model of its extension members. */
export interface ProblemType<
  Extensions extends ProblemExtensions = ProblemExtensions,
  Status extends number = number,
> {
  readonly type: string;
  readonly title: string;
  readonly status: Status;
  /** For an endpoint's `returns`: documents the status with this type's schema, as problem details. */
  readonly response: ResponseSpec<z.ZodObject, typeof PROBLEM_JSON, `${Status}`>;
  /** The error to throw: `throw outOfStock.error("Only 2 left", { sku })`. */
  error(detail: string, extensions: Extensions, headers?: Record<string, string>): HttpProblem;
}

/**
 * Declares a problem type: the document describes it (its `type` as a constant, its extension
 * members as the model says), and the generated client narrows an answer by status and `type`.
 *
 * @example
 * const OutOfStock = problemType({ type: "https://example.org/problems/out-of-stock", title: "Out of stock",
 *   status: 409, model: z.object({ sku: z.string() }), id: "OutOfStockProblem" });
 * // returns: [p.ResponseSpec({ code: "201", model: Reservation }), OutOfStock.response]
 * // handler: throw OutOfStock.error(`"${sku}" is out of stock`, { sku });
 */
export function problemType<Model extends z.ZodObject, Status extends number>(options: {
  type: string;
  title: string;
  status: Status;
  model: Model;
  /** The schema's name in the document (default: the title without spaces, then `Problem`). */
  id?: string;
  description?: string;
}): ProblemType<z.output<Model>, Status> {
  const { type, title, status, model } = options;
  const id = options.id ?? `${title.replace(/[^A-Za-z0-9]+/g, "")}Problem`;
  const schema = z
    .object({
      type: z.literal(type),
      title: z.string(),
      status: z.literal(status),
      detail: z.string().optional(),
      instance: z.string().optional(),
      ...model.shape,
    })
    .meta({ id });
  const response = new ResponseSpec({
    code: `${status}` as `${Status}`,
    model: schema,
    content_type: PROBLEM_JSON,
    description: options.description ?? title,
  });
  return {
    type,
    title,
    status,
    response,
    error: (detail, extensions, headers) =>
      new HttpProblem({ ...extensions, type, title, status, detail }, headers),
  };
}
