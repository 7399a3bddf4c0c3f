import type { Kysely } from "kysely";
import { type MigrationProvider, Migrator } from "kysely/migration";
import type { DialectName } from "./dialect.ts";
import { initialSchema } from "./migrations/001-initial-schema.ts";
import { emailAnyCase } from "./migrations/002-email-any-case.ts";
import { writeTransaction } from "./write-transaction.ts";

/** Every migration, listed in code (not found by scanning a folder), in the order they apply. */
function migrationProvider(dialect: DialectName): MigrationProvider {
  return {
    getMigrations: async () => ({
      "001-initial-schema": initialSchema(dialect),
      "002-email-any-case": emailAnyCase,
    }),
  };
}

/**
 * Brings the schema up to date; a fresh database gets every table. Resolves to the names of the
 * migrations it applied (none when the schema was up to date).
 * @example await migrateToLatest(kysely, "sqlite") // ["001-initial-schema", "002-email-any-case"]
 */
export async function migrateToLatest<DB>(db: Kysely<DB>, dialect: DialectName): Promise<string[]> {
  let applied: string[] = [];
  const run = async (target: Kysely<DB>) => {
    const { error, results } = await new Migrator({
      db: target,
      provider: migrationProvider(dialect),
    }).migrateToLatest();
    if (error !== undefined) {
      throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
    }
    applied = (results ?? [])
      .filter((result) => result.status === "Success")
      .map((result) => result.migrationName);
  };
  // PostgreSQL's migrator takes an advisory lock; Kysely's SQLite migrator takes none, so the
  // write lock keeps several processes that open a fresh file together from racing.
  await (dialect === "postgres" ? run(db) : writeTransaction(db, dialect, run));
  return applied;
}
