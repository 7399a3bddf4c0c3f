import { type Check, postgresStore } from "unruffled/rate-limit";
import { describe, expect, it } from "vitest";
import { usePostgresDatabase } from "../support/stores.ts";

// One unit a millisecond: the key's quota is whole again a millisecond after the request.
const brief = (key: string): Check => ({
  key: `brief:${key}`,
  interval: 1_000,
  capacity: 1_000_000,
  cost: 1,
});
// One unit an hour: the key stays for the whole test.
const hourly = (key: string): Check => ({
  key: `hourly:${key}`,
  interval: 3_600_000_000,
  capacity: 18_000_000_000,
  cost: 1,
});

// A database of this file's own, and a client to read its tables.
const database = usePostgresDatabase();

async function keys(table: string): Promise<string[]> {
  const result = await database.client.query<{ key: string }>(`select key from ${table} order by key`);
  return result.rows.map((row) => row.key);
}

/** Waits, without a deadline of its own (the test's timeout is the limit), until `condition` holds. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

// Until the database's clock has passed every brief key's quota: from then on a sweep deletes them.
async function untilWhole(table: string): Promise<void> {
  await until(async () => {
    const result = await database.client.query<{ due: string }>(
      `select count(*) as due from ${table} where tat >= floor(extract(epoch from clock_timestamp()) * 1000000) and key like 'brief:%'`,
    );
    return result.rows[0]!.due === "0";
  });
}

describe("postgresStore() sweeps the keys whose quota is whole again", () => {
  it("sweep() deletes the keys whose quota is whole again, and only those", async () => {
    const store = postgresStore({ connectionString: database.url, table: "swept_once", sweepInterval: 0 });
    try {
      for (const key of ["a", "b", "c"]) await store.consume([brief(key)]);
      await store.consume([hourly("a"), brief("d")]);
      expect(await keys("swept_once")).toEqual(["brief:a", "brief:b", "brief:c", "brief:d", "hourly:a"]);
      await untilWhole("swept_once");
      expect(await store.sweep()).toBe(4);
      expect(await keys("swept_once")).toEqual(["hourly:a"]);
    } finally {
      await store.close();
    }
  });

  it("decides a swept key as a key never seen", async () => {
    const store = postgresStore({ connectionString: database.url, table: "swept_fresh", sweepInterval: 0 });
    try {
      await store.consume([brief("a")]);
      await untilWhole("swept_fresh");
      expect(await store.sweep()).toBe(1);
      const [swept] = await store.consume([brief("a")]);
      const [fresh] = await store.consume([brief("never-seen")]);
      expect(swept).toEqual({ admitted: true, remaining: 999, reset: 1_000, retryAfter: 0 });
      expect(fresh).toEqual({ admitted: true, remaining: 999, reset: 1_000, retryAfter: 0 });
    } finally {
      await store.close();
    }
  });

  it("deletes more keys than one batch in several statements", async () => {
    const store = postgresStore({ connectionString: database.url, table: "swept_many", sweepInterval: 0 });
    try {
      await store.consume([hourly("kept")]);
      await database.client.query(
        "insert into swept_many (key, tat) select 'old:' || n, 0 from generate_series(1, 12000) as n",
      );
      expect(await store.sweep()).toBe(12_000);
      expect(await keys("swept_many")).toEqual(["hourly:kept"]);
    } finally {
      await store.close();
    }
  });

  it("sweeps on its own every sweepInterval once it has been used", async () => {
    const store = postgresStore({ connectionString: database.url, table: "swept_timer", sweepInterval: 20 });
    try {
      await store.consume([hourly("a"), brief("a")]);
      await store.consume([brief("b")]);
      await until(async () => (await keys("swept_timer")).length === 1);
      expect(await keys("swept_timer")).toEqual(["hourly:a"]);
    } finally {
      await store.close();
    }
  });

  it("refuses a sweepInterval that is not a whole number of milliseconds", () => {
    expect(() => postgresStore({ connectionString: database.url, sweepInterval: 1.5 })).toThrow(
      new TypeError(
        "postgresStore(): sweepInterval must be a whole number of milliseconds (0: never), got 1.5",
      ),
    );
  });
});
