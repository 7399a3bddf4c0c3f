import type { Check } from "./gcra.ts";
import type { Decisions, RateLimitStore } from "./store.ts";

// gcra.ts's decideAll, in PL/pgSQL, on the database's clock: one statement per request, atomic over
// its keys (their rows are locked in key order, so two requests never wait on each other in a cycle).
// One insert makes the missing rows and locks the others (ON CONFLICT DO UPDATE locks a row even
// where its WHERE is false), so that a sweep cannot delete a row between its insert and its lock.
const schema = (table: string, fn: string, unlogged: boolean) => `
create ${unlogged ? "unlogged " : ""}table if not exists ${table} (key text primary key, tat bigint not null);
create or replace function ${fn}(keys text[], intervals bigint[], capacities bigint[], costs bigint[])
returns table (admitted boolean, remaining bigint, reset bigint, retry_after bigint)
language plpgsql as $$
declare
  now_us bigint := floor(extract(epoch from clock_timestamp()) * 1000000);
  n int := array_length(keys, 1);
  starts bigint[] := array[]::bigint[];
  nexts bigint[] := array[]::bigint[];
  oks boolean[] := array[]::boolean[];
  all_ok boolean := true;
  stored bigint;
  s bigint;
  nx bigint;
begin
  insert into ${table} as t (key, tat) select distinct k, 0 from unnest(keys) as k order by 1
    on conflict (key) do update set tat = t.tat where false;
  for i in 1..n loop
    select t.tat into stored from ${table} t where t.key = keys[i];
    s := greatest(stored, now_us);
    nx := s + costs[i] * intervals[i];
    starts := starts || s;
    nexts := nexts || nx;
    oks := oks || (nx - now_us <= capacities[i]);
    if nx - now_us > capacities[i] then all_ok := false; end if;
  end loop;
  for i in 1..n loop
    if all_ok then
      update ${table} set tat = nexts[i] where key = keys[i];
      admitted := true; remaining := floor((capacities[i] - (nexts[i] - now_us)) / intervals[i]);
      reset := nexts[i] - now_us; retry_after := 0;
    elsif oks[i] then
      admitted := true; remaining := floor((capacities[i] - (starts[i] - now_us)) / intervals[i]);
      reset := starts[i] - now_us; retry_after := 0;
    else
      admitted := false; remaining := floor((capacities[i] - (starts[i] - now_us)) / intervals[i]);
      reset := starts[i] - now_us; retry_after := nexts[i] - capacities[i] - now_us;
    end if;
    return next;
  end loop;
end $$;
`;

/** What `postgresStore()` needs of a `pg` pool: a query with parameters. */
interface PoolLike {
  query(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount?: number | null }>;
  end?(): Promise<void>;
  on?(event: "error", listener: (error: Error) => void): unknown;
}

export interface PostgresStoreOptions {
  /** `postgres://user@host:5432/db`: the store makes its own pool (the `pg` package, loaded then). */
  connectionString?: string;
  /** A `pg` pool the app made (the store never ends it). */
  pool?: PoolLike;
  /** The table the store keeps (created when missing; default `unruffled_rate_limits`). */
  table?: string;
  /**
   * Whether the table it creates is `UNLOGGED` (default true): its rows are not written to the
   * write-ahead log, so a decision commits without waiting for the disk (1.2–1.4× the decisions a
   * second, measured with fsync on). The price: after a crash of the database (not a
   * clean restart) the table is empty, and a standby has it empty, so every quota starts whole
   * again. `false` keeps the quotas through a crash. A table that exists is used as it is.
   */
  unlogged?: boolean;
  /** How often the keys whose quota is whole again are deleted, in ms (default 60 s; 0: never). */
  sweepInterval?: number;
  /**
   * How long a query of the store's own pool may wait for the database, in ms (default 5 s): a
   * connection on which the server stopped answering is then given up, so that `app.close()` can
   * end the pool. A request waits at most `RATE_LIMITS.store_timeout` either way.
   */
  queryTimeout?: number;
}

// The most rows one delete takes: a sweep of many keys is several short statements, not one long one.
const SWEEP_BATCH = 5_000;

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,50}$/;

/**
 * State in PostgreSQL: exact across every instance that shares the database, one round trip per
 * request (one SQL function call), on the database's clock. It creates its table and function on
 * first use, and deletes the keys whose quota is whole again every `sweepInterval` (60 s). `pg` is
 * an optional peer dependency, loaded then.
 *
 * @example createApp({ routes, rateLimitStore: postgresStore({ connectionString: process.env.DATABASE_URL }) })
 */
export function postgresStore(options: PostgresStoreOptions): PostgresStore {
  if (options.connectionString === undefined && options.pool === undefined) {
    throw new TypeError("postgresStore() needs a connectionString or a pool");
  }
  const table = options.table ?? "unruffled_rate_limits";
  if (!IDENTIFIER.test(table)) {
    throw new TypeError(
      `postgresStore(): the table name ${JSON.stringify(table)} must be a lower-case SQL identifier`,
    );
  }
  const sweepInterval = options.sweepInterval ?? 60_000;
  if (!Number.isInteger(sweepInterval) || sweepInterval < 0) {
    throw new TypeError(
      `postgresStore(): sweepInterval must be a whole number of milliseconds (0: never), got ${JSON.stringify(sweepInterval)}`,
    );
  }
  if (options.unlogged !== undefined && typeof options.unlogged !== "boolean") {
    throw new TypeError(
      `postgresStore(): unlogged must be true or false, got ${JSON.stringify(options.unlogged)}`,
    );
  }
  const queryTimeout = options.queryTimeout ?? 5_000;
  if (!Number.isInteger(queryTimeout) || queryTimeout < 1) {
    throw new TypeError(
      `postgresStore(): queryTimeout must be a whole number of milliseconds, at least 1, got ${JSON.stringify(queryTimeout)}`,
    );
  }
  return new PostgresStore({ ...options, queryTimeout }, table, sweepInterval);
}

/** The store `postgresStore()` makes: a `RateLimitStore` that can also be swept on demand. */
export class PostgresStore implements RateLimitStore {
  readonly kind = "rate-limit-store";
  private readonly options: PostgresStoreOptions;
  private readonly table: string;
  private readonly statement: string;
  private readonly sweepStatement: string;
  private readonly sweepInterval: number;
  private ready: Promise<PoolLike> | undefined;
  private owned: PoolLike | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;

  constructor(options: PostgresStoreOptions, table: string, sweepInterval: number) {
    this.options = options;
    this.table = table;
    this.sweepInterval = sweepInterval;
    this.statement = `select admitted, remaining, reset, retry_after from ${table}_take($1::text[], $2::bigint[], $3::bigint[], $4::bigint[])`;
    // The outer `tat <` is checked again on a row a request updated meanwhile: it stays.
    this.sweepStatement = `with cutoff as (select floor(extract(epoch from statement_timestamp()) * 1000000)::bigint as us)
      delete from ${table} where tat < (select us from cutoff)
        and key in (select key from ${table} where tat < (select us from cutoff) limit ${SWEEP_BATCH})`;
  }

  async consume(checks: readonly Check[]): Promise<Decisions> {
    const pool = await this.prepared();
    // Keys whose quota is whole again hold nothing worth keeping: swept in the background.
    if (this.sweepInterval > 0) {
      this.sweeper ??= setInterval(() => {
        // A failed sweep is tried again at the next interval; the store's failures show in consume().
        this.sweep().catch(() => {});
      }, this.sweepInterval).unref();
    }
    const result = await pool.query(this.statement, [
      checks.map((check) => check.key),
      checks.map((check) => check.interval),
      checks.map((check) => check.capacity),
      checks.map((check) => check.cost),
    ]);
    return result.rows.map((row) => ({
      admitted: row.admitted === true,
      remaining: Number(row.remaining),
      reset: Number(row.reset),
      retryAfter: Number(row.retry_after),
    }));
  }

  /** The pool, once the table and the function exist; tried again after a failure. */
  private prepared(): Promise<PoolLike> {
    this.ready ??= this.prepare().catch((error) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async prepare(): Promise<PoolLike> {
    let pool = this.options.pool;
    if (pool === undefined) {
      const pg = await import("pg");
      const Pool = (pg.default ?? pg).Pool;
      pool = this.owned ??= new Pool({
        connectionString: this.options.connectionString,
        connectionTimeoutMillis: 2_000,
        query_timeout: this.options.queryTimeout,
      });
      // An idle client that loses its connection must not crash the process: the next query fails instead.
      pool.on?.("error", () => {});
    }
    // Two instances starting together would both create the function: one at a time.
    await pool.query(
      `select pg_advisory_xact_lock(hashtext('${this.table}')); ${schema(this.table, `${this.table}_take`, this.options.unlogged ?? true)}`,
    );
    return pool;
  }

  /**
   * Deletes the keys whose quota is whole again (their `tat` is past, on the database's clock): a
   * missing key decides as a whole quota does. Runs every `sweepInterval`; resolves to how many
   * rows it deleted.
   *
   * @example await store.sweep() // 42
   */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepAll().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  private async sweepAll(): Promise<number> {
    const pool = await this.prepared();
    let deleted = 0;
    for (;;) {
      const count = (await pool.query(this.sweepStatement)).rowCount ?? 0;
      deleted += count;
      if (count < SWEEP_BATCH) return deleted;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    await this.sweeping?.catch(() => {});
    const owned = this.owned;
    this.owned = undefined;
    this.ready = undefined;
    await owned?.end?.().catch(() => {});
  }
}
