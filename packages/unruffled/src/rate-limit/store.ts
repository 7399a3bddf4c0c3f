import type { Check, Decision } from "./gcra.ts";

/**
 * What a request's checks come back as: one decision per check, in order. A store that answers at
 * once may hand back the same array, changed, to its next request (the memory store does, so that a
 * limited request allocates nothing there): read it before another request can reach the store, or
 * copy it with `keptDecisions()`.
 */
export type Decisions = Decision[];

/** A copy of a store's answer that outlives the store's next request. */
export function keptDecisions(decisions: Decisions): Decisions {
  return decisions.map((decision) => ({ ...decision }));
}

/**
 * Where rate-limit state lives. Every store runs the same GCRA arithmetic (gcra.ts) on its own
 * clock, atomically over all the checks of one request: `memoryStore()` (this process),
 * `workerStore()` (the workers of one machine, through the cluster primary), `redisStore()` and
 * `postgresStore()` (every instance that shares them).
 */
export interface RateLimitStore {
  readonly kind: "rate-limit-store";
  /** A request's checks, decided at once; a promise for a store across processes. */
  consume(checks: readonly Check[]): Decisions | Promise<Decisions>;
  /** Releases connections and timers (`app.close()` calls it). */
  close?(): void | Promise<void>;
}
