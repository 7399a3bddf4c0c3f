/** PostgreSQL's SQLSTATE and better-sqlite3's codes for "this value already exists". */
const uniqueViolationCodes = new Set(["23505", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"]);

/**
 * Whether a database error is a UNIQUE or PRIMARY KEY violation, on either dialect.
 * @example if (isUniqueViolation(error)) throw alreadyEnrolled(studentId, courseId)
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) {
    return false;
  }
  return uniqueViolationCodes.has(String(error.code));
}
