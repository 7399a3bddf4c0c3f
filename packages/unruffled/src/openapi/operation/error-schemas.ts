import { z } from "zod";

/** One issue of a 422, as the default validation handler writes it. */
export const ValidationIssueSchema = z
  .object({
    loc: z.array(z.union([z.string(), z.int()])),
    msg: z.string(),
    type: z.string(),
    input: z.unknown(),
  })
  .meta({ id: "ValidationIssue" });

/** The body of the default 422: `{"detail": [issue, …]}`. */
export const HttpValidationErrorSchema = z
  .object({ detail: z.array(ValidationIssueSchema) })
  .meta({ id: "HTTPValidationError" });

/** The body of the default answer to an `HttpError`: `{"detail": message}`. */
export const HttpErrorSchema = z.object({ detail: z.string() }).meta({ id: "HTTPError" });
