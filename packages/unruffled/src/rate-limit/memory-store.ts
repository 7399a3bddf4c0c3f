import { type Check, decideAll } from "./gcra.ts";
import type { Decisions, RateLimitStore } from "./store.ts";

/**
 * State in this process's memory: exact for one process. With N workers (or N instances) each
 * counts alone, so together they admit up to N × the limit: use `workerStore()`, `redisStore()` or
 * `postgresStore()` there.
 *
 * @example createApp({ routes, rateLimit: { store: memoryStore() } })
 */
export function memoryStore(options: { clock?: () => number } = {}): MemoryStore {
  return new MemoryStore(options.clock ?? Date.now);
}

export class MemoryStore implements RateLimitStore {
  readonly kind = "rate-limit-store";
  private readonly tats = new Map<string, number>();
  private readonly clock: () => number;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(clock: () => number) {
    this.clock = clock;
  }

  consume(checks: readonly Check[]): Decisions {
    const now = this.clock();
    if (checks.length === 1) {
      // Most routes have one policy: no arrays to build beyond the answer.
      const check = checks[0]!;
      const stored = this.tats.get(check.key);
      // gcra.ts's decide(), inlined: one decision object and nothing else per request.
      const start = stored === undefined || stored < now ? now : stored;
      const next = start + check.cost * check.interval;
      if (next - now > check.capacity) {
        return [
          {
            admitted: false,
            remaining: Math.floor((check.capacity - (start - now)) / check.interval),
            reset: start - now,
            retryAfter: next - check.capacity - now,
          },
        ];
      }
      this.tats.set(check.key, next);
      this.sweeper ??= setInterval(() => this.sweep(), 60_000).unref();
      return [
        {
          admitted: true,
          remaining: Math.floor((check.capacity - (next - now)) / check.interval),
          reset: next - now,
          retryAfter: 0,
        },
      ];
    }
    const tats = checks.map((check) => this.tats.get(check.key));
    const result = decideAll(tats, now, checks);
    if (result.admitted) {
      for (let index = 0; index < checks.length; index++)
        this.tats.set(checks[index]!.key, result.tats[index]!);
      // Keys whose quota is whole again hold nothing worth keeping: swept once a minute.
      this.sweeper ??= setInterval(() => this.sweep(), 60_000).unref();
    }
    return result.decisions;
  }

  /** Forgets the keys whose quota is whole again. */
  sweep(): void {
    const now = this.clock();
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
  }

  /** How many keys it holds, for tests. */
  get size(): number {
    return this.tats.size;
  }

  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
