import { sql } from "kysely";
import type { Database } from "./open-database.ts";

/**
 * The readiness check of the service: one round trip to the database (SQLite or PostgreSQL). A
 * pool whose server went away fails it, so a load balancer stops sending requests that would fail.
 *
 * @example health: { checks: { database: () => pingDatabase(db) } }
 */
export async function pingDatabase(database: Database): Promise<void> {
  await sql`select 1`.execute(database.kysely);
}
