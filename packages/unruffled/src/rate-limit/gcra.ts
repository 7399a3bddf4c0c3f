/**
 * The one algorithm every store runs: GCRA (the generic cell rate algorithm), in whole microseconds
 * so that JavaScript, Lua and SQL compute the same numbers. A policy of `limit` per `window` admits
 * one unit every `interval` = ceil(window / limit) µs, and at most `limit` units at once: a key's
 * state is one number, its theoretical arrival time (`tat`), when its quota is whole again.
 * Microseconds rather than milliseconds: a policy of more than 1,000 units a second would have its
 * interval rounded up to 1 ms, and so admit only 1,000 a second. The Redis script (redis-store.ts)
 * and the SQL function (postgres-store.ts) repeat these lines.
 */

/** One policy's check of one key: what a store is asked. */
export interface Check {
  /** The store key: the policy's name and the request's key. */
  key: string;
  /** µs between two units: ceil(window / limit). */
  interval: number;
  /** The burst: `limit` units, in µs (`interval × limit`). */
  capacity: number;
  /** The units this request costs. */
  cost: number;
}

/** A store's answer for one check. */
export interface Decision {
  admitted: boolean;
  /** Units left after this request (before it, when refused). */
  remaining: number;
  /** µs until the quota is whole again. */
  reset: number;
  /** µs until the request would be admitted; 0 when admitted. */
  retryAfter: number;
}

/**
 * The decision for one check at `now` (µs), and the key's new `tat` (unchanged when refused).
 *
 * @example decide(undefined, 1_000_000, { key: "k", interval: 180_000_000, capacity: 3_600_000_000, cost: 1 }) // admitted, remaining 19
 */
export function decide(
  tat: number | undefined,
  now: number,
  check: Check,
): { decision: Decision; tat: number } {
  const start = tat === undefined || tat < now ? now : tat;
  const next = start + check.cost * check.interval;
  if (next - now > check.capacity) {
    return {
      decision: {
        admitted: false,
        remaining: Math.floor((check.capacity - (start - now)) / check.interval),
        reset: start - now,
        retryAfter: next - check.capacity - now,
      },
      tat: start,
    };
  }
  return {
    decision: {
      admitted: true,
      remaining: Math.floor((check.capacity - (next - now)) / check.interval),
      reset: next - now,
      retryAfter: 0,
    },
    tat: next,
  };
}

/**
 * Every check of a request at once: admitted only when each policy admits, and only then counted
 * against any of them (a refused request uses no quota).
 */
export function decideAll(
  tats: readonly (number | undefined)[],
  now: number,
  checks: readonly Check[],
): { decisions: Decision[]; tats: number[]; admitted: boolean } {
  const decisions: Decision[] = [];
  const next: number[] = [];
  let admitted = true;
  for (let index = 0; index < checks.length; index++) {
    const { decision, tat } = decide(tats[index], now, checks[index]!);
    decisions.push(decision);
    next.push(tat);
    if (!decision.admitted) admitted = false;
  }
  if (!admitted) {
    // A refused request uses no quota: the admitted ones report what they had before it.
    for (let index = 0; index < checks.length; index++) {
      const decision = decisions[index]!;
      if (!decision.admitted) continue;
      const check = checks[index]!;
      const before = Math.max(tats[index] ?? now, now);
      decision.remaining = Math.floor((check.capacity - (before - now)) / check.interval);
      decision.reset = before - now;
      next[index] = before;
    }
  }
  return { decisions, tats: next, admitted };
}
