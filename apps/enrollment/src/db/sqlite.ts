import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";

/** Opens (creating if needed) an SQLite file that several processes can share safely. */
export function openSqlite<DB>(path: string): Kysely<DB> {
  if (path !== ":memory:") {
    mkdirSync(dirname(path), { recursive: true });
  }
  const file = new SQLite(path);
  // Wait for another process's write lock instead of failing with SQLITE_BUSY at once.
  file.pragma("busy_timeout = 5000");
  // Readers do not block the writer and the writer does not block readers.
  file.pragma("journal_mode = WAL");
  // SQLite ignores REFERENCES unless asked, per connection.
  file.pragma("foreign_keys = ON");
  // SQLite's LIKE and lower() fold ASCII letters only; name search folds every letter, as PostgreSQL does.
  file.function("lower_unicode", { deterministic: true }, (text) =>
    typeof text === "string" ? text.toLowerCase() : text,
  );
  return new Kysely<DB>({ dialect: new SqliteDialect({ database: file }) });
}
