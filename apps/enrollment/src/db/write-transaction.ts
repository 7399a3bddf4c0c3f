import { type Kysely, sql } from "kysely";
import type { DialectName } from "./dialect.ts";

/**
 * Runs `work` in a transaction meant for read-check-write sequences.
 *
 * SQLite: `BEGIN IMMEDIATE` takes the file's write lock before the first read, so other writers,
 * in this process or in others, wait (up to busy_timeout) instead of acting on stale counts.
 * PostgreSQL: an ordinary transaction; `work` locks the rows it depends on with `FOR UPDATE`.
 *
 * @example await writeTransaction(db, "sqlite", async (trx) => trx.insertInto(...).execute())
 */
export async function writeTransaction<DB, T>(
  db: Kysely<DB>,
  dialect: DialectName,
  work: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  if (dialect === "postgres") {
    return db.transaction().execute(work);
  }
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      // SQLite rolls back by itself after some errors; the original error is the one to report.
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
  });
}
