import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";

/** Connects to PostgreSQL through a pool that survives the server going away and coming back. */
export function openPostgres<DB>(url: string): Kysely<DB> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client whose server disappeared emits 'error'; unheard, it would crash the process.
  // The pool drops that client and opens a new one on the next query.
  pool.on("error", (error) => {
    console.error(`PostgreSQL idle connection lost: ${error.message}`);
  });
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}
