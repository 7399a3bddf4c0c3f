import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { type Database, type DialectName, openDatabase } from "../../src/db/index.ts";
import { startTestPostgres } from "./postgres.ts";

/** Every dialect the service supports; tests run once per entry via `describe.each(dialects)`. */
export const dialects: DialectName[] = ["sqlite", "postgres"];

/** Hands out URLs of new, empty databases of one dialect, and removes them all at the end. */
export interface DatabaseSource {
  freshUrl(): Promise<string>;
  close(): Promise<void>;
}

export async function databaseSource(dialect: DialectName): Promise<DatabaseSource> {
  if (dialect === "postgres") {
    const server = await startTestPostgres();
    return { freshUrl: () => server.createDatabase(), close: () => server.stop() };
  }
  const dir = await mkdtemp(join(tmpdir(), "enrollment-sqlite-"));
  let count = 0;
  return {
    freshUrl: async () => join(dir, `test-${++count}.db`),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** An accessor of the test's database, and the URL it was opened from. */
export type FreshDatabase = (() => Database) & { url(): string };

/**
 * Registers hooks that give each test an empty, migrated database whose ids start at 1.
 * SQLite: a new file per test, unless `shared` (a server in another process keeps the file open).
 * PostgreSQL, and a shared SQLite file: creating a database takes ~300 ms (and a server holds its
 * file), so the tests of a block share one and empty it before each test.
 * @example const db = useFreshDatabase("sqlite"); it("...", async () => createStudent(db(), ...))
 */
export function useFreshDatabase(dialect: DialectName, { shared = false } = {}): FreshDatabase {
  let source: DatabaseSource | undefined;
  let database: Database | undefined;
  let url = "";
  beforeAll(async () => {
    source = await databaseSource(dialect);
  });
  beforeEach(async () => {
    if (dialect === "postgres" && database !== undefined) {
      await sql`truncate table enrollments, courses, students restart identity`.execute(database.kysely);
      return;
    }
    if (shared && database !== undefined) {
      for (const table of ["enrollments", "courses", "students", "sqlite_sequence"]) {
        await sql`delete from ${sql.table(table)}`.execute(database.kysely);
      }
      return;
    }
    await database?.close();
    url = await source!.freshUrl();
    database = await openDatabase(url);
  });
  afterAll(async () => {
    await database?.close();
    await source?.close();
  });
  return Object.assign(() => database!, { url: () => url });
}
