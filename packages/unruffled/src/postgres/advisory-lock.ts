/** A connection of a pool, as `pg`'s `PoolClient` is one: what the lock needs of it. */
export interface LockConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  release(error?: Error | boolean): void;
  /** `pg`'s client tells here that its connection broke (and with it, the lock). */
  on?(event: "error", listener: (error: Error) => void): unknown;
  removeListener?(event: "error", listener: (error: Error) => void): unknown;
}

/** A pool of PostgreSQL connections, as `pg`'s `Pool` is one (no import of `pg` here). */
export interface LockPool {
  connect(): Promise<LockConnection>;
}

// The name becomes the lock's 64-bit key on the server, so that every instance maps it the same way.
const LOCK = "select pg_advisory_lock(hashtextextended($1, 0))";
const TRY_LOCK = "select pg_try_advisory_lock(hashtextextended($1, 0)) as acquired";
const UNLOCK = "select pg_advisory_unlock(hashtextextended($1, 0))";

/**
 * Runs `work` while holding the PostgreSQL advisory lock named `name`, on a connection of its own
 * taken from `pool`: an instance that asks while another holds it waits, then runs its own `work`
 * (which finds the migrations applied, say). The lock belongs to that connection's session, so a
 * process that dies lets go of it at once; should the connection break while `work` runs, the lock
 * is lost and the signal `work` gets aborts. Resolves to what `work` resolves to.
 *
 * @example
 * import pg from "pg";
 * import { withAdvisoryLock } from "unruffled/postgres";
 * await withAdvisoryLock(pool, "migrations", () => migrateToLatest(db));
 */
export async function withAdvisoryLock<T>(
  pool: LockPool,
  name: string,
  work: (signal: AbortSignal) => Promise<T> | T,
): Promise<T> {
  // pg_advisory_lock waits for the lock: never undefined.
  const held = (await locked(pool, LOCK, name))!;
  try {
    return await work(held.signal);
  } finally {
    await unlock(held, name);
  }
}

/**
 * Runs `work` only if the advisory lock named `name` is free now, for work that one instance does
 * and the others skip (a scheduled job): `{ ran: false }` when another instance holds it.
 *
 * @example
 * const outcome = await tryAdvisoryLock(pool, "nightly-report", () => sendReport());
 * if (!outcome.ran) log.info("another instance sends the report");
 */
export async function tryAdvisoryLock<T>(
  pool: LockPool,
  name: string,
  work: (signal: AbortSignal) => Promise<T> | T,
): Promise<{ ran: true; value: T } | { ran: false }> {
  const held = await locked(pool, TRY_LOCK, name);
  if (held === undefined) return { ran: false };
  try {
    return { ran: true, value: await work(held.signal) };
  } finally {
    await unlock(held, name);
  }
}

/** A connection that holds a lock, and the signal that aborts if it breaks. */
interface HeldLock {
  connection: LockConnection;
  signal: AbortSignal;
  onError: (error: Error) => void;
}

/** A connection holding the lock, or undefined when a try found it taken (the connection went back). */
async function locked(pool: LockPool, statement: string, name: string): Promise<HeldLock | undefined> {
  const connection = await pool.connect();
  const lost = new AbortController();
  // Heard, a broken connection does not become an uncaught 'error' event that stops the process.
  const onError = (error: Error) => lost.abort(error);
  connection.on?.("error", onError);
  try {
    const { rows } = await connection.query(statement, [name]);
    if (statement === TRY_LOCK && rows[0]?.acquired !== true) {
      connection.removeListener?.("error", onError);
      connection.release();
      return undefined;
    }
    return { connection, signal: lost.signal, onError };
  } catch (error) {
    connection.removeListener?.("error", onError);
    connection.release(error as Error);
    throw error;
  }
}

/** Lets go of the lock; a connection that could not is closed rather than pooled with the lock held. */
async function unlock({ connection, signal, onError }: HeldLock, name: string): Promise<void> {
  if (signal.aborted) {
    connection.removeListener?.("error", onError);
    connection.release(signal.reason as Error);
    return;
  }
  try {
    await connection.query(UNLOCK, [name]);
    connection.removeListener?.("error", onError);
    connection.release();
  } catch (error) {
    connection.removeListener?.("error", onError);
    connection.release(error as Error);
  }
}
