import { HttpError, type ProblemMembers } from "../errors.ts";
import { QUOTA_EXCEEDED } from "./headers.ts";

/**
 * A request past a rate-limit policy: 429 with `Retry-After`. As problem details, the draft's
 * quota-exceeded type, with the names of the exhausted policies in `violated-policies`.
 */
export class TooManyRequestsError extends HttpError implements ProblemMembers {
  override name = "TooManyRequestsError";
  /** The policies whose quota is exhausted. */
  readonly policies: readonly string[];
  /** Seconds until the request would be admitted (also in `Retry-After`). */
  readonly retryAfter: number;

  constructor(policies: readonly string[], retryAfter: number) {
    const named = policies.map((name) => `"${name}"`).join(", ");
    super(
      429,
      `Too Many Requests: the quota of ${policies.length === 1 ? "policy" : "policies"} ${named} is exhausted; retry in ${retryAfter} s`,
      { "retry-after": String(retryAfter) },
    );
    this.policies = policies;
    this.retryAfter = retryAfter;
  }

  get problemMembers() {
    return {
      type: QUOTA_EXCEEDED,
      title: "Request cannot be satisfied as assigned quota has been exceeded",
      "violated-policies": [...this.policies],
    };
  }
}

/** The store could not be reached and the limits fail closed: 503. */
export class RateLimitStoreUnavailableError extends HttpError {
  override name = "RateLimitStoreUnavailableError";
  constructor() {
    super(503, "Service Unavailable: the rate-limit store cannot be reached");
  }
}
