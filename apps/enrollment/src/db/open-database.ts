import { fileURLToPath } from "node:url";
import type { Kysely } from "kysely";
import { memoryPubSub, type PubSub, postgresPubSub } from "unruffled/pubsub";
import { type DialectName, dialectOf } from "./dialect.ts";
import { migrateToLatest } from "./migrate.ts";
import { openPostgres } from "./postgres.ts";
import { PubSubSeatChanges, type SeatChanges } from "./seat-changes.ts";
import { openSqlite } from "./sqlite.ts";
import type { Tables } from "./tables.ts";

/** An open, migrated database: what every service function takes. */
export interface Database {
  kysely: Kysely<Tables>;
  dialect: DialectName;
  /** Bind and unbind announce here; course event streams follow. */
  seatChanges: SeatChanges;
  /** Closes the SQLite file or ends the PostgreSQL pool. */
  close(): Promise<void>;
}

/** Where the embedded database lives when `DATABASE_URL` is not set: `apps/enrollment/data/`. */
export const defaultSqlitePath = fileURLToPath(new URL("../../data/enrollment.db", import.meta.url));

/** How the database is opened beside the app. */
export interface OpenDatabaseOptions {
  /**
   * Where seat changes are announced: the app's `app.pubsub`, which the app closes. Without one the
   * database makes its own (PostgreSQL `LISTEN/NOTIFY` on PostgreSQL, in-process on SQLite) and
   * closes it with itself.
   */
  pubsub?: PubSub | undefined;
}

/**
 * Opens the database named by `url` (default: `DATABASE_URL`, else the embedded SQLite file) and
 * migrates it, so a fresh start serves a working schema.
 * @example const database = await openDatabase("postgres://postgres@127.0.0.1:5432/enrollment")
 */
export async function openDatabase(
  url: string = process.env.DATABASE_URL || defaultSqlitePath,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const dialect = dialectOf(url);
  const kysely = dialect === "postgres" ? openPostgres<Tables>(url) : openSqlite<Tables>(url);
  try {
    await migrateToLatest(kysely, dialect);
  } catch (error) {
    await kysely.destroy();
    throw error;
  }
  const seatChanges = new PubSubSeatChanges(options.pubsub ?? seatsBroker(url), {
    owned: options.pubsub === undefined,
  });
  return {
    kysely,
    dialect,
    seatChanges,
    close: async () => {
      await seatChanges.close();
      await kysely.destroy();
    },
  };
}

/** The broker a database opened without the app's: across processes on PostgreSQL, else in this one. */
export function seatsBroker(url: string): PubSub {
  return dialectOf(url) === "postgres" ? postgresPubSub({ connectionString: url }) : memoryPubSub();
}
