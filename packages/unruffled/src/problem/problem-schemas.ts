import { z } from "zod";

/** The members of every problem details body (RFC 9457 §3.1). */
export const ProblemDetailsSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
  })
  .meta({ id: "ProblemDetails" });

/** One issue of a 422: a JSON Pointer into the body, or a parameter's place and name. */
export const ProblemIssueSchema = z
  .object({
    detail: z.string(),
    code: z.string(),
    pointer: z.string().optional(),
    in: z.enum(["path", "query", "header", "cookie"]).optional(),
    parameter: z.string().optional(),
  })
  .meta({ id: "ProblemIssue" });

/** The 422 as problem details: every issue of the request in `errors`. */
export const ValidationProblemSchema = ProblemDetailsSchema.extend({
  errors: z.array(ProblemIssueSchema),
}).meta({ id: "ValidationProblem" });
