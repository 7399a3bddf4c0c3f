import { type Expression, type SqlBool, sql } from "kysely";
import type { DialectName } from "./dialect.ts";

/**
 * `name` contains `text`, ignoring case; `%` and `_` in `text` match themselves.
 * On SQLite, `lower_unicode` (registered by `openSqlite`) folds the letters LIKE would not.
 * @example db.selectFrom("students").selectAll().where(nameContains("sqlite", "ann"))
 */
export function nameContains(dialect: DialectName, text: string): Expression<SqlBool> {
  const pattern = `%${text.replace(/[\\%_]/g, (wildcard) => `\\${wildcard}`)}%`;
  return dialect === "postgres"
    ? sql<SqlBool>`name ilike ${pattern} escape '\\'`
    : sql<SqlBool>`lower_unicode(name) like ${pattern.toLowerCase()} escape '\\'`;
}
