import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
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
 * Registers hooks that give each test its own freshly migrated database, so ids start at 1.
 * @example const db = useFreshDatabase("sqlite"); it("...", async () => createStudent(db(), ...))
 */
export function useFreshDatabase(dialect: DialectName): () => Database {
  let source: DatabaseSource | undefined;
  let database: Database | undefined;
  beforeAll(async () => {
    source = await databaseSource(dialect);
  });
  afterAll(async () => {
    await source?.close();
  });
  beforeEach(async () => {
    database = await openDatabase(await source!.freshUrl());
  });
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });
  return () => {
    if (database === undefined) {
      throw new Error("useFreshDatabase: the database exists only inside a test");
    }
    return database;
  };
}
