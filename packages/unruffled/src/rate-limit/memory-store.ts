import { type Check, type Decision, decideAll } from "./gcra.ts";
import type { Decisions, RateLimitStore } from "./store.ts";

/**
 * State in this process's memory: exact for one process. With N workers (or N instances) each
 * counts alone, so together they admit up to N × the limit: use `workerStore()`, `redisStore()` or
 * `postgresStore()` there.
 *
 * `clock` gives the time in milliseconds, as `Date.now` (the default) does.
 *
 * @example createApp({ routes, rateLimitStore: memoryStore() })
 */
export function memoryStore(options: { clock?: () => number } = {}): MemoryStore {
  return new MemoryStore(options.clock ?? Date.now);
}

/**
 * A key's state. Kept in an object rather than as the Map's value: a new time in an object's
 * number field is written in place, where a new Map value would be a new heap number per request.
 */
interface Slot {
  tat: number;
}

export class MemoryStore implements RateLimitStore {
  readonly kind = "rate-limit-store";
  private readonly slots = new Map<string, Slot>();
  private readonly clock: () => number;
  private sweeper: NodeJS.Timeout | undefined;
  /**
   * The answer to a request with one check, reused: a store's answer is read before the next
   * request reaches it (see `Decisions`), and a limited route's requests then allocate nothing here.
   */
  private readonly single: Decision = { admitted: true, remaining: 0, reset: 0, retryAfter: 0 };
  private readonly singleAnswer: Decisions = [this.single];

  constructor(clock: () => number) {
    this.clock = clock;
  }

  consume(checks: readonly Check[]): Decisions {
    // The algorithm counts in microseconds (gcra.ts); the clock, in milliseconds.
    const now = this.clock() * 1000;
    if (checks.length === 1) return this.consumeOne(checks[0]!, now);
    const slots = checks.map((check) => this.slots.get(check.key));
    const result = decideAll(
      slots.map((slot) => slot?.tat),
      now,
      checks,
    );
    if (result.admitted) {
      for (let index = 0; index < checks.length; index++)
        this.store(checks[index]!.key, slots[index], result.tats[index]!);
    }
    return result.decisions;
  }

  /** Most routes have one policy: gcra.ts's decide(), inlined, into the reused answer. */
  private consumeOne(check: Check, now: number): Decisions {
    const slot = this.slots.get(check.key);
    const start = slot === undefined || slot.tat < now ? now : slot.tat;
    const next = start + check.cost * check.interval;
    const decision = this.single;
    if (next - now > check.capacity) {
      decision.admitted = false;
      decision.remaining = Math.floor((check.capacity - (start - now)) / check.interval);
      decision.reset = start - now;
      decision.retryAfter = next - check.capacity - now;
      return this.singleAnswer;
    }
    this.store(check.key, slot, next);
    decision.admitted = true;
    decision.remaining = Math.floor((check.capacity - (next - now)) / check.interval);
    decision.reset = next - now;
    decision.retryAfter = 0;
    return this.singleAnswer;
  }

  private store(key: string, slot: Slot | undefined, tat: number): void {
    if (slot !== undefined) slot.tat = tat;
    else {
      this.slots.set(key, { tat });
      // Keys whose quota is whole again hold nothing worth keeping: swept once a minute.
      this.sweeper ??= setInterval(() => this.sweep(), 60_000).unref();
    }
  }

  /** Forgets the keys whose quota is whole again. */
  sweep(): void {
    const now = this.clock() * 1000;
    for (const [key, slot] of this.slots) if (slot.tat <= now) this.slots.delete(key);
  }

  /** How many keys it holds, for tests. */
  get size(): number {
    return this.slots.size;
  }

  /** The keys it holds, in the order they came, for tests. */
  keys(): string[] {
    return [...this.slots.keys()];
  }

  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
