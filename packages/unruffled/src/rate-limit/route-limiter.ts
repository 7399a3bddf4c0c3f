import type { HttpError } from "../errors.ts";
import type { HttpRequest } from "../http/request.ts";
import type { HttpResponse } from "../http/response.ts";
import { defaultKey } from "./client-key.ts";
import type { Check } from "./gcra.ts";
import { policyHeader, rateLimitHeader, seconds } from "./headers.ts";
import type { RateLimitKey, RateLimitPolicy } from "./policy.ts";
import type { Decisions, RateLimitStore } from "./store.ts";
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
  /** The last key the key function gave, and the store key made of it: see `checksOf`. */
  lastKey: string;
  lastStoreKey: string;
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
  private readonly context: LimiterContext;

  constructor(policies: readonly RateLimitPolicy[], principalIndex: number, context: LimiterContext) {
    this.policies = policies;
    this.policyHeader = policyHeader(policies);
    this.principalIndex = principalIndex;
    this.context = context;
    this.names = policies.map((policy) => policy.name);
    this.compiled = policies.map((policy) => {
      const interval = Math.ceil((policy.window * 1000) / policy.limit);
      return {
        name: policy.name,
        limit: policy.limit,
        interval,
        capacity: interval * policy.limit,
        prefix: `${policy.name}:`,
        key: policy.key ?? defaultKey,
        cost: policy.cost,
        lastKey: "",
        lastStoreKey: `${policy.name}:`,
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
  checksOf(request: HttpRequest, principal: unknown): Check[] {
    const checks: Check[] = [];
    for (const policy of this.compiled) {
      const cost = typeof policy.cost === "number" ? policy.cost : policy.cost(request);
      const key = policy.key(request, principal);
      // Consecutive requests of one client (a keep-alive connection) reuse one store key: a new
      // string per request would be hashed again by the store's Map, which costs more than the rest.
      if (key !== policy.lastKey) {
        policy.lastKey = key;
        policy.lastStoreKey = policy.prefix + key;
      }
      checks.push({
        key: policy.lastStoreKey,
        interval: policy.interval,
        capacity: policy.capacity,
        cost,
      });
    }
    return checks;
  }

  /** Asks the store about every policy of the route at once; may throw, or reject, when it fails. */
  consume(checks: readonly Check[]): Decisions | Promise<Decisions> {
    return this.context.store.consume(checks);
  }

  /** The 429 of a request some policy refuses, or undefined when all admit it. */
  refusal(decisions: Decisions): TooManyRequestsError | undefined {
    let violated: string[] | undefined;
    let wait = 0;
    for (let index = 0; index < decisions.length; index++) {
      const decision = decisions[index]!;
      if (decision.admitted) continue;
      violated ??= [];
      violated.push(this.names[index]!);
      wait = Math.max(wait, decision.retryAfter);
    }
    return violated === undefined
      ? undefined
      : new TooManyRequestsError(violated, Math.max(1, seconds(wait)));
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
    headers.ratelimit = rateLimitHeader(this.names, decisions);
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
