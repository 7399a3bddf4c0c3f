import type { Check } from "./gcra.ts";
import type { Decisions, RateLimitStore } from "./store.ts";

// gcra.ts's decideAll, in PL/pgSQL, on the database's clock: one statement per request, atomic over
// its keys (their rows are locked in key order, so two requests never wait on each other in a cycle).
const schema = (table: string, fn: string) => `
create table if not exists ${table} (key text primary key, tat bigint not null);
create or replace function ${fn}(keys text[], intervals bigint[], capacities bigint[], costs bigint[])
returns table (admitted boolean, remaining bigint, reset bigint, retry_after bigint)
language plpgsql as $$
declare
  now_ms bigint := floor(extract(epoch from clock_timestamp()) * 1000);
  n int := array_length(keys, 1);
  starts bigint[] := array[]::bigint[];
  nexts bigint[] := array[]::bigint[];
  oks boolean[] := array[]::boolean[];
  all_ok boolean := true;
  stored bigint;
  s bigint;
  nx bigint;
begin
  insert into ${table} (key, tat) select distinct k, 0 from unnest(keys) as k order by 1 on conflict do nothing;
  perform 1 from ${table} where key = any(keys) order by key for update;
  for i in 1..n loop
    select t.tat into stored from ${table} t where t.key = keys[i];
    s := greatest(stored, now_ms);
    nx := s + costs[i] * intervals[i];
    starts := starts || s;
    nexts := nexts || nx;
    oks := oks || (nx - now_ms <= capacities[i]);
    if nx - now_ms > capacities[i] then all_ok := false; end if;
  end loop;
  for i in 1..n loop
    if all_ok then
      update ${table} set tat = nexts[i] where key = keys[i];
      admitted := true; remaining := floor((capacities[i] - (nexts[i] - now_ms)) / intervals[i]);
      reset := nexts[i] - now_ms; retry_after := 0;
    elsif oks[i] then
      admitted := true; remaining := floor((capacities[i] - (starts[i] - now_ms)) / intervals[i]);
      reset := starts[i] - now_ms; retry_after := 0;
    else
      admitted := false; remaining := floor((capacities[i] - (starts[i] - now_ms)) / intervals[i]);
      reset := starts[i] - now_ms; retry_after := nexts[i] - capacities[i] - now_ms;
    end if;
    return next;
  end loop;
end $$;
`;

/** What `postgresStore()` needs of a `pg` pool: a query with parameters. */
interface PoolLike {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
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
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,50}$/;

/**
 * State in PostgreSQL: exact across every instance that shares the database, one round trip per
 * request (one SQL function call), on the database's clock. It creates its table and function on
 * first use. `pg` is an optional peer dependency, loaded then.
 *
 * @example createApp({ routes, rateLimitStore: postgresStore({ connectionString: process.env.DATABASE_URL }) })
 */
export function postgresStore(options: PostgresStoreOptions): RateLimitStore {
  if (options.connectionString === undefined && options.pool === undefined) {
    throw new TypeError("postgresStore() needs a connectionString or a pool");
  }
  const table = options.table ?? "unruffled_rate_limits";
  if (!IDENTIFIER.test(table)) {
    throw new TypeError(
      `postgresStore(): the table name ${JSON.stringify(table)} must be a lower-case SQL identifier`,
    );
  }
  return new PostgresStore(options, table);
}

class PostgresStore implements RateLimitStore {
  readonly kind = "rate-limit-store";
  private readonly options: PostgresStoreOptions;
  private readonly table: string;
  private readonly statement: string;
  private ready: Promise<PoolLike> | undefined;
  private owned: PoolLike | undefined;

  constructor(options: PostgresStoreOptions, table: string) {
    this.options = options;
    this.table = table;
    this.statement = `select admitted, remaining, reset, retry_after from ${table}_take($1::text[], $2::bigint[], $3::bigint[], $4::bigint[])`;
  }

  async consume(checks: readonly Check[]): Promise<Decisions> {
    const pool = await this.prepared();
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
      });
      // An idle client that loses its connection must not crash the process: the next query fails instead.
      pool.on?.("error", () => {});
    }
    // Two instances starting together would both create the function: one at a time.
    await pool.query(
      `select pg_advisory_xact_lock(hashtext('${this.table}')); ${schema(this.table, `${this.table}_take`)}`,
    );
    return pool;
  }

  async close(): Promise<void> {
    const owned = this.owned;
    this.owned = undefined;
    this.ready = undefined;
    await owned?.end?.().catch(() => {});
  }
}
