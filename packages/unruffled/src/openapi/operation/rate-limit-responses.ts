import { z } from "zod";
import { PROBLEM_JSON } from "../../problem/problem-details.ts";
import { ProblemDetailsSchema } from "../../problem/problem-schemas.ts";
import { QUOTA_EXCEEDED, RATELIMIT_DRAFT } from "../../rate-limit/headers.ts";
import { TooManyRequestsError } from "../../rate-limit/too-many-requests.ts";
import { ResponseSpec } from "../../route/declare/response-spec.ts";
import type { EndpointDescription } from "../../route/description.ts";
import type { HeaderObject, ResponseObject } from "../types.ts";
import { HttpErrorSchema } from "./error-schemas.ts";
import type { DocumentedErrors } from "./security.ts";

/** The 429 as problem details: the draft's quota-exceeded type, with the exhausted policies. */
export const QuotaExceededProblemSchema = ProblemDetailsSchema.extend({
  type: z.literal(QUOTA_EXCEEDED),
  "violated-policies": z.array(z.string()),
}).meta({ id: "QuotaExceededProblem" });

const TOO_MANY = [
  new ResponseSpec({ code: "429", model: HttpErrorSchema, description: "Too Many Requests" }),
];
const TOO_MANY_PROBLEM = [
  new ResponseSpec({
    code: "429",
    model: QuotaExceededProblemSchema,
    content_type: PROBLEM_JSON,
    description: "Too Many Requests",
  }),
];

/** What the app's handlers answer to a request past a limit: for limited operations only. */
export function rateLimitResponses(
  description: EndpointDescription,
  errors: DocumentedErrors,
): readonly ResponseSpec[] {
  if (description.rateLimiter === undefined) return [];
  return errors.responsesFor(TooManyRequestsError, TOO_MANY, TOO_MANY_PROBLEM);
}

const POLICY: HeaderObject = {
  description: `The route's quota policies (${RATELIMIT_DRAFT}): a structured-field List, \`"name";q=<units>;w=<seconds>\`.`,
  schema: { type: "string" },
};
const RATELIMIT: HeaderObject = {
  description: `Each policy's remaining units and the seconds until its quota is whole (${RATELIMIT_DRAFT}): \`"name";r=<units>;t=<seconds>\`.`,
  schema: { type: "string" },
};
const RETRY_AFTER: HeaderObject = {
  description: "Seconds to wait before the request can be admitted.",
  schema: { type: "integer", minimum: 1 },
};
const LEGACY: Record<string, HeaderObject> = {
  "X-RateLimit-Limit": {
    description: "The quota of the policy with the fewest units left.",
    schema: { type: "integer" },
  },
  "X-RateLimit-Remaining": { description: "Its remaining units.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Seconds until its quota is whole.", schema: { type: "integer" } },
};

/**
 * The rate-limit headers of a limited operation's answers: `RateLimit-Policy` and `RateLimit` on its
 * successes and its client errors (every request is counted), `Retry-After` on the 429.
 */
export function addRateLimitHeaders(
  description: EndpointDescription,
  responses: Record<string, ResponseObject>,
): void {
  const limiter = description.rateLimiter;
  if (limiter === undefined) return;
  for (const [code, response] of Object.entries(responses)) {
    if (!code.startsWith("2") && !code.startsWith("4")) continue;
    const headers: Record<string, HeaderObject> = {
      ...response.headers,
      "RateLimit-Policy": POLICY,
      RateLimit: RATELIMIT,
    };
    if (limiter.legacyHeaders) Object.assign(headers, LEGACY);
    if (code === "429") headers["Retry-After"] = RETRY_AFTER;
    // Headers before content, as every other response of the document writes them.
    const { description: text, content } = response;
    responses[code] =
      content === undefined ? { description: text, headers } : { description: text, headers, content };
  }
}
