/** The databases this service runs on; the same migrations and queries serve both. */
export type DialectName = "sqlite" | "postgres";

/** `postgres://` and `postgresql://` URLs select PostgreSQL; anything else is an SQLite file path. */
export function dialectOf(url: string): DialectName {
  return /^postgres(ql)?:\/\//i.test(url) ? "postgres" : "sqlite";
}
