import type { Check, Decision } from "./gcra.ts";

/** What a request's checks come back as: one decision per check, in order. */
export type Decisions = Decision[];

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
