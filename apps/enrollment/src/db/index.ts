export { type DialectName, dialectOf } from "./dialect.ts";
export {
  countEnrollments,
  isEnrolled,
  lockCourse,
  requireCourse,
  requireStudent,
} from "./enrollment-queries.ts";
export { migrateToLatest } from "./migrate.ts";
export { nameContains } from "./name-contains.ts";
export {
  type Database,
  defaultSqlitePath,
  type OpenDatabaseOptions,
  openDatabase,
  seatsBroker,
} from "./open-database.ts";
export { PubSubSeatChanges, type SeatChanges, seatsTopic } from "./seat-changes.ts";
export { type BooleanLiteral, readBoolean, type StoredBoolean, sqlBoolean } from "./stored-boolean.ts";
export type {
  CourseRow,
  CourseTable,
  EnrollmentTable,
  StudentRow,
  StudentTable,
  Tables,
  Timestamp,
} from "./tables.ts";
export { isUniqueViolation } from "./unique-violation.ts";
export { writeTransaction } from "./write-transaction.ts";
