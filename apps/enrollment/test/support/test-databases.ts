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

/**
 * Registers hooks that give each test an empty, migrated database whose ids start at 1.
 * SQLite: a new file per test. PostgreSQL: creating a database takes ~300 ms, so the tests of a
 * block share one and empty it before each test.
 * @example const db = useFreshDatabase("sqlite"); it("...", async () => createStudent(db(), ...))
 */
export function useFreshDatabase(dialect: DialectName): () => Database {
  let source: DatabaseSource | undefined;
  let database: Database | undefined;
  beforeAll(async () => {
    source = await databaseSource(dialect);
  });
  beforeEach(async () => {
    if (dialect === "postgres" && database !== undefined) {
      await sql`truncate table enrollments, courses, students restart identity`.execute(database.kysely);
      return;
    }
    await database?.close();
    database = await openDatabase(await source!.freshUrl());
  });
  afterAll(async () => {
    await database?.close();
    await source?.close();
  });
  return () => database!;
}
