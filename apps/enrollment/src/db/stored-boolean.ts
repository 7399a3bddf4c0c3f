import { type ColumnType, type RawBuilder, sql } from "kysely";

/** A boolean written as the SQL literal TRUE or FALSE, which both PostgreSQL and SQLite parse. */
export type BooleanLiteral = RawBuilder<boolean>;

/** PostgreSQL reads back `true`/`false`, SQLite reads back 1/0; writes must be a `BooleanLiteral`. */
export type StoredBoolean = ColumnType<boolean | number, BooleanLiteral | undefined, BooleanLiteral>;

/**
 * Turns a boolean into something both dialects can store (better-sqlite3 cannot bind booleans).
 * @example db.insertInto("courses").values({ ..., is_active: sqlBoolean(true) })
 */
export function sqlBoolean(value: boolean): BooleanLiteral {
  return sql.lit(value);
}

/** Reads a stored boolean as a real boolean on both dialects. */
export function readBoolean(value: boolean | number): boolean {
  return value === true || value === 1;
}
