import {
  type Check,
  type Decision,
  memoryStore,
  postgresStore,
  type RateLimitStore,
  redisStore,
} from "unruffled/rate-limit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, startRedis, type TestRedis } from "../support/stores.ts";

// 20 per hour (one unit every 180 s) and 5 per day: no unit comes back during the test, so every
// store's decisions are the same whatever the machine's speed. Times are compared in whole minutes
// (every one is a multiple of 3), so a slow run shifts none of them.
const hourly = (key: string, cost = 1): Check => ({
  key: `hourly:${key}`,
  interval: 180_000_000,
  capacity: 3_600_000_000,
  cost,
});
const daily = (key: string): Check => ({
  key: `daily:${key}`,
  interval: 17_280_000_000,
  capacity: 86_400_000_000,
  cost: 1,
});

const sequence: Check[][] = [
  [hourly("a")],
  [hourly("a", 5)],
  [hourly("a"), daily("a")],
  [hourly("b", 20)],
  [hourly("b")],
  [hourly("a", 14)],
  [hourly("a"), daily("a")],
  [daily("a")],
  [daily("a")],
  [daily("a")],
  [daily("a")],
  [hourly("c"), daily("a")],
  [hourly("c")],
];

function inSeconds(decision: Decision) {
  return {
    admitted: decision.admitted,
    remaining: decision.remaining,
    reset: Math.round(decision.reset / 60_000_000),
    retryAfter: Math.round(decision.retryAfter / 60_000_000),
  };
}

async function run(store: RateLimitStore) {
  const results = [];
  for (const checks of sequence) results.push((await store.consume(checks)).map(inSeconds));
  await store.close?.();
  return results;
}

describe("every store runs the same arithmetic", () => {
  let redis: TestRedis;
  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    [redis, database] = await Promise.all([startRedis(), createPostgresDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([redis.close(), database.drop()]);
  });

  it("memory, Redis and PostgreSQL decide a sequence of checks alike", async () => {
    const memory = await run(memoryStore());
    expect(memory).toEqual([
      [{ admitted: true, remaining: 19, reset: 3, retryAfter: 0 }],
      [{ admitted: true, remaining: 14, reset: 18, retryAfter: 0 }],
      [
        { admitted: true, remaining: 13, reset: 21, retryAfter: 0 },
        { admitted: true, remaining: 4, reset: 288, retryAfter: 0 },
      ],
      [{ admitted: true, remaining: 0, reset: 60, retryAfter: 0 }],
      [{ admitted: false, remaining: 0, reset: 60, retryAfter: 3 }],
      [{ admitted: false, remaining: 13, reset: 21, retryAfter: 3 }],
      [
        { admitted: true, remaining: 12, reset: 24, retryAfter: 0 },
        { admitted: true, remaining: 3, reset: 576, retryAfter: 0 },
      ],
      [{ admitted: true, remaining: 2, reset: 864, retryAfter: 0 }],
      [{ admitted: true, remaining: 1, reset: 1152, retryAfter: 0 }],
      [{ admitted: true, remaining: 0, reset: 1440, retryAfter: 0 }],
      [{ admitted: false, remaining: 0, reset: 1440, retryAfter: 288 }],
      // Refused by the daily policy: the hourly one is not charged.
      [
        { admitted: true, remaining: 20, reset: 0, retryAfter: 0 },
        { admitted: false, remaining: 0, reset: 1440, retryAfter: 288 },
      ],
      [{ admitted: true, remaining: 19, reset: 3, retryAfter: 0 }],
    ]);
    expect(await run(redisStore({ url: redis.url }))).toEqual(memory);
    expect(await run(postgresStore({ connectionString: database.url }))).toEqual(memory);
  });
});
