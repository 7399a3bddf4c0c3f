import pg from "pg";
import { waitFor } from "process-support";
import { tryAdvisoryLock, withAdvisoryLock } from "unruffled/postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The run's throwaway PostgreSQL cluster (vitest.config.ts's globalSetup), as the service's tests use it.
import { startTestPostgres, type TestPostgres } from "../../../../apps/enrollment/test/support/postgres.ts";

/** A promise with its resolve, to hold a piece of work until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe("withAdvisoryLock and tryAdvisoryLock on PostgreSQL", () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  // A second pool, as a second instance of the app would have.
  let other: pg.Pool;

  /** How many sessions wait for an advisory lock now. */
  const waiting = async () => {
    const { rows } = await pool.query(
      "select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted",
    );
    return rows[0].n as number;
  };

  beforeAll(async () => {
    server = await startTestPostgres();
    const url = await server.createDatabase();
    pool = new pg.Pool({ connectionString: url, max: 4 });
    other = new pg.Pool({ connectionString: url, max: 4 });
  });

  afterAll(async () => {
    await pool?.end();
    await other?.end();
    await server?.stop();
  });

  it("runs the work of a second holder only once the first has finished", async () => {
    const held = gate();
    const order: string[] = [];
    const first = withAdvisoryLock(pool, "migrations", async () => {
      order.push("first starts");
      await held.opened;
      order.push("first ends");
      return "first";
    });
    await waitFor("the first to hold the lock", () => (order.length === 1 ? true : undefined));
    const second = withAdvisoryLock(other, "migrations", () => {
      order.push("second runs");
      return "second";
    });
    await waitFor("the second to wait for the lock", async () =>
      (await waiting()) === 1 ? true : undefined,
    );
    expect(order).toEqual(["first starts"]);
    held.open();
    expect(await Promise.all([first, second])).toEqual(["first", "second"]);
    expect(order).toEqual(["first starts", "first ends", "second runs"]);
  });

  it("lets work under other names run at the same time", async () => {
    const held = gate();
    const first = withAdvisoryLock(pool, "report", () => held.opened);
    expect(await withAdvisoryLock(other, "cleanup", () => "ran")).toBe("ran");
    held.open();
    await first;
  });

  it("tryAdvisoryLock skips the work while another holds the lock, and runs it once free", async () => {
    const held = gate();
    let started = false;
    const first = withAdvisoryLock(pool, "nightly", async () => {
      started = true;
      await held.opened;
    });
    await waitFor("the first to hold the lock", () => (started ? true : undefined));
    expect(await tryAdvisoryLock(other, "nightly", () => "ran")).toEqual({ ran: false });
    held.open();
    await first;
    expect(await tryAdvisoryLock(other, "nightly", () => "ran")).toEqual({ ran: true, value: "ran" });
  });

  it("lets go of the lock when the work fails, and rejects with the work's error", async () => {
    await expect(
      withAdvisoryLock(pool, "failing", () => {
        throw new Error("migration 003 failed");
      }),
    ).rejects.toThrow("migration 003 failed");
    expect(await tryAdvisoryLock(other, "failing", () => "free")).toEqual({ ran: true, value: "free" });
  });

  it("is let go when its holder's connection dies, and the holder's work hears it through its signal", async () => {
    const held = gate();
    let lost: unknown;
    const first = withAdvisoryLock(pool, "crashing", async (signal) => {
      signal.addEventListener("abort", () => {
        lost = signal.reason;
        held.open();
      });
      await held.opened;
      return "first ended";
    });
    // The holder's session, ended from outside, as when its process or its machine dies.
    const holder = await waitFor("the lock to be held", async () => {
      const { rows } = await other.query("select pid from pg_locks where locktype = 'advisory' and granted");
      return rows.length === 1 ? (rows[0].pid as number) : undefined;
    });
    await other.query("select pg_terminate_backend($1)", [holder]);
    expect(await withAdvisoryLock(other, "crashing", () => "taken over")).toBe("taken over");
    expect(await first).toBe("first ended");
    expect((lost as Error).message).toMatch(/terminat/i);
  });
});
