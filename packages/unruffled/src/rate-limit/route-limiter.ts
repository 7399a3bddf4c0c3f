import type { HttpError } from "../errors.ts";
import type { HttpRequest } from "../http/request.ts";
import type { HttpResponse } from "../http/response.ts";
import { defaultKey } from "./client-key.ts";
import type { Check } from "./gcra.ts";
import { policyHeader, RateLimitField, seconds } from "./headers.ts";
import type { RateLimitKey, RateLimitPolicy } from "./policy.ts";
import type { Decisions, RateLimitStore } from "./store.ts";
import { withinStoreTimeout } from "./store-timeout.ts";
import { RateLimitStoreUnavailableError, TooManyRequestsError } from "./too-many-requests.ts";

/** What every limited route of an app shares: the store, and what to do when it fails. */
export interface LimiterContext {
  store: RateLimitStore;
  /** `"open"` admits requests while the store is unreachable (one warning per interval); `"closed"` answers 503. */
  onStoreFailure: "open" | "closed";
  /** Also send `X-RateLimit-Limit`, `-Remaining` and `-Reset` (of the policy with the fewest units left). */
  legacyHeaders: boolean;
  /** Where the store's failures are told, at most once per `warnInterval` ms. */
  warn(details: Record<string, unknown>, message: string): void;
  warnInterval: number;
  /** How long a store that answers through a promise may take before its silence counts as a failure (ms). */
  storeTimeout: number;
  /** When the last warning was told (shared by the app's routes). */
  lastWarning: { at: number };
}

/** One policy, compiled: its numbers in the arithmetic's units and its key function. */
interface CompiledPolicy {
  name: string;
  limit: number;
  interval: number;
  capacity: number;
  prefix: string;
  key: RateLimitKey;
  cost: number | ((request: HttpRequest) => number);
  /** The last key the key function gave, and its check: see `checkOf`. */
  lastKey: string;
  lastCheck: Check;
  /** `[lastCheck]`, for a route whose only policy has a fixed cost. */
  lastChecks: readonly Check[];
}

/**
 * One policy's check of a request. Consecutive requests of one client (a keep-alive connection)
 * get the same check back: a new key string per request would be hashed again by the store's Map,
 * which costs more than the rest.
 */
function checkOf(policy: CompiledPolicy, request: HttpRequest, principal: unknown): Check {
  const cost = typeof policy.cost === "number" ? policy.cost : checkedCost(policy, policy.cost(request));
  const key = policy.key(request, principal);
  if (key !== policy.lastKey) {
    policy.lastKey = key;
    policy.lastCheck = {
      key: policy.prefix + key,
      interval: policy.interval,
      capacity: policy.capacity,
      cost,
    };
  }
  const last = policy.lastCheck;
  return last.cost === cost
    ? last
    : { key: last.key, interval: last.interval, capacity: last.capacity, cost };
}

/**
 * What a cost function gave, held to the rule `rateLimit()` sets for a fixed cost: a whole number
 * from 1 to the limit. Anything else (0, a negative number that would give units back, NaN that would
 * poison the key's time, more than the limit that no wait could admit) is the app's error: a 500.
 */
function checkedCost(policy: CompiledPolicy, cost: unknown): number {
  if (typeof cost === "number" && Number.isInteger(cost) && cost >= 1 && cost <= policy.limit) return cost;
  throw new TypeError(
    `rateLimit("${policy.name}"): the cost function gave ${typeof cost === "number" ? String(cost) : (JSON.stringify(cost) ?? String(cost))}; a request's cost must be a whole number from 1 to the limit (${policy.limit}).`,
  );
}

/**
 * A route's policies, compiled when the route is built: the checks of a request, its refusal, and
 * the headers of every answer. Only a limited route has one.
 */
export class RouteLimiter {
  readonly policies: readonly RateLimitPolicy[];
  /** `RateLimit-Policy`, the same on every answer of the route. */
  readonly policyHeader: string;
  /** Where the route's principal is among its resolved dependencies; -1 when it has no scheme. */
  readonly principalIndex: number;
  private readonly compiled: readonly CompiledPolicy[];
  private readonly names: readonly string[];
  /** `RateLimit`, made from each answer's decisions. */
  private readonly rateLimitField: RateLimitField;
  private readonly context: LimiterContext;

  constructor(policies: readonly RateLimitPolicy[], principalIndex: number, context: LimiterContext) {
    this.policies = policies;
    this.policyHeader = policyHeader(policies);
    this.principalIndex = principalIndex;
    this.context = context;
    this.names = policies.map((policy) => policy.name);
    this.rateLimitField = new RateLimitField(policies);
    this.compiled = policies.map((policy) => {
      const interval = Math.ceil((policy.window * 1_000_000) / policy.limit);
      const capacity = interval * policy.limit;
      const prefix = `${policy.name}:`;
      // The check of the key "" until a request brings another.
      const first = {
        key: prefix,
        interval,
        capacity,
        cost: typeof policy.cost === "number" ? policy.cost : 1,
      };
      return {
        name: policy.name,
        limit: policy.limit,
        interval,
        capacity,
        prefix,
        key: policy.key ?? defaultKey,
        cost: policy.cost,
        lastKey: "",
        lastCheck: first,
        lastChecks: [first],
      };
    });
  }

  /** True when the answers also carry `X-RateLimit-*`: the document lists them. */
  get legacyHeaders(): boolean {
    return this.context.legacyHeaders;
  }

  /**
   * The checks of a request: each policy's key and cost. A key or cost function that throws is the
   * app's error (a 500), not the store's.
   */
  checksOf(request: HttpRequest, principal: unknown): readonly Check[] {
    const compiled = this.compiled;
    if (compiled.length === 1 && typeof compiled[0]!.cost === "number") {
      // The stores only read the checks: a client's consecutive requests share one array too.
      const policy = compiled[0]!;
      const only = checkOf(policy, request, principal);
      if (policy.lastChecks[0] !== only) policy.lastChecks = [only];
      return policy.lastChecks;
    }
    const checks: Check[] = [];
    for (const policy of compiled) checks.push(checkOf(policy, request, principal));
    return checks;
  }

  /**
   * Asks the store about every policy of the route at once; may throw, or reject, when it fails or
   * stays silent past `RATE_LIMITS.store_timeout`. A store that decides at once (memory) is not timed.
   */
  consume(checks: readonly Check[]): Decisions | Promise<Decisions> {
    const decisions = this.context.store.consume(checks);
    return decisions instanceof Promise
      ? withinStoreTimeout(decisions, this.context.storeTimeout)
      : decisions;
  }

  /** The 429 of a request some policy refuses, or undefined when all admit it. */
  refusal(decisions: Decisions): TooManyRequestsError | undefined {
    let violated: string[] | undefined;
    for (let index = 0; index < decisions.length; index++) {
      if (decisions[index]!.admitted) continue;
      violated ??= [];
      violated.push(this.names[index]!);
    }
    return violated === undefined ? undefined : new TooManyRequestsError(violated, retryAfter(decisions));
  }

  /** What answers a request while the store fails: nothing (admitted), or the 503 when failing closed. */
  storeFailed(error: unknown, request: HttpRequest): HttpError | undefined {
    const now = Date.now();
    const last = this.context.lastWarning;
    if (now - last.at >= this.context.warnInterval) {
      last.at = now;
      this.context.warn(
        { err: error, reqId: request.id, method: request.method, path: request.path },
        this.context.onStoreFailure === "open"
          ? "The rate-limit store cannot be reached: requests are admitted without limits"
          : "The rate-limit store cannot be reached: limited routes answer 503",
      );
    }
    return this.context.onStoreFailure === "closed" ? new RateLimitStoreUnavailableError() : undefined;
  }

  /** The rate-limit headers of an answer; `RateLimit` only when the store decided. */
  writeHeaders(response: HttpResponse, decisions: Decisions | undefined): void {
    const headers = response.headers;
    headers["ratelimit-policy"] = this.policyHeader;
    if (decisions === undefined) return;
    headers.ratelimit = this.rateLimitField.of(decisions);
    // The 429 of the app's own handler for TooManyRequestsError: the wait is the limiter's to tell.
    if (response.status === 429 && headers["retry-after"] === undefined && decisions.some(refused)) {
      headers["retry-after"] = String(retryAfter(decisions));
    }
    if (!this.context.legacyHeaders) return;
    let tightest = 0;
    for (let index = 1; index < decisions.length; index++) {
      if (decisions[index]!.remaining < decisions[tightest]!.remaining) tightest = index;
    }
    headers["x-ratelimit-limit"] = String(this.compiled[tightest]!.limit);
    headers["x-ratelimit-remaining"] = String(decisions[tightest]!.remaining);
    headers["x-ratelimit-reset"] = String(seconds(decisions[tightest]!.reset));
  }
}

function refused(decision: Decisions[number]): boolean {
  return !decision.admitted;
}

/** Whole seconds until every refusing policy would admit the request (at least 1). */
function retryAfter(decisions: Decisions): number {
  let wait = 0;
  for (const decision of decisions) if (!decision.admitted) wait = Math.max(wait, decision.retryAfter);
  return Math.max(1, seconds(wait));
}
