// postgresStore()'s table: unlogged unless asked otherwise, and one that exists is used as it is.
import { type Check, postgresStore } from "unruffled/rate-limit";
import { describe, expect, it } from "vitest";
import { usePostgresDatabase } from "../support/stores.ts";

const once = (key: string): Check => ({ key, interval: 1_000_000, capacity: 5_000_000, cost: 1 });

// A database of this file's own, and a client to read its tables.
const database = usePostgresDatabase();

/** The table's persistence as PostgreSQL keeps it: "u" unlogged, "p" permanent (logged). */
async function persistence(table: string): Promise<string | undefined> {
  const result = await database.client.query<{ relpersistence: string }>(
    "select relpersistence from pg_class where relname = $1 and relkind = 'r'",
    [table],
  );
  return result.rows[0]?.relpersistence;
}

describe("postgresStore()'s table", () => {
  it("is created UNLOGGED by default", async () => {
    const store = postgresStore({
      connectionString: database.url,
      table: "limits_default",
      sweepInterval: 0,
    });
    try {
      const [decision] = await store.consume([once("a")]);
      expect([decision!.admitted, decision!.remaining, await persistence("limits_default")]).toEqual([
        true,
        4,
        "u",
      ]);
    } finally {
      await store.close();
    }
  });

  it("is created logged with unlogged: false", async () => {
    const store = postgresStore({
      connectionString: database.url,
      table: "limits_logged",
      sweepInterval: 0,
      unlogged: false,
    });
    try {
      await store.consume([once("a")]);
      expect(await persistence("limits_logged")).toBe("p");
    } finally {
      await store.close();
    }
  });

  it("uses a table that exists as it is: a logged one made before stays logged, and keeps its rows", async () => {
    await database.client.query("create table limits_earlier (key text primary key, tat bigint not null)");
    const first = postgresStore({
      connectionString: database.url,
      table: "limits_earlier",
      sweepInterval: 0,
    });
    try {
      await first.consume([once("a")]);
    } finally {
      await first.close();
    }
    const second = postgresStore({
      connectionString: database.url,
      table: "limits_earlier",
      sweepInterval: 0,
    });
    try {
      const [decision] = await second.consume([once("a")]);
      expect([decision!.remaining, await persistence("limits_earlier")]).toEqual([3, "p"]);
    } finally {
      await second.close();
    }
  });

  it("refuses an unlogged option that is not true or false", () => {
    expect(() => postgresStore({ connectionString: database.url, unlogged: "yes" as never })).toThrow(
      new TypeError('postgresStore(): unlogged must be true or false, got "yes"'),
    );
  });
});
