import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";

/**
 * Connects to PostgreSQL through a pool that survives the server going away and coming back; the
 * pool itself is there too, for work on a connection of its own (an advisory lock).
 */
export function openPostgres<DB>(url: string): { kysely: Kysely<DB>; pool: pg.Pool } {
  // A server that stops answering must not hold requests forever: statements end after 10 s on the
  // server's side, and the client gives up on a silent server after 15 s.
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5_000,
    statement_timeout: 10_000,
    query_timeout: 15_000,
  });
  // An idle client whose server disappeared emits 'error'; unheard, it would crash the process.
  // The pool drops that client and opens a new one on the next query.
  pool.on("error", (error) => {
    console.error(`PostgreSQL idle connection lost: ${error.message}`);
  });
  return { kysely: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), pool };
}
