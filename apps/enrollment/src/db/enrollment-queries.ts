// The reads that bind and unbind check their rules with; each takes the transaction it runs in.
import type { Kysely } from "kysely";
import { courseNotFound, studentNotFound } from "../business-error.ts";
import type { DialectName } from "./dialect.ts";
import type { Tables } from "./tables.ts";

/** Throws 404 unless the student exists. */
export async function requireStudent(db: Kysely<Tables>, studentId: number): Promise<void> {
  const student = await db.selectFrom("students").select("id").where("id", "=", studentId).executeTakeFirst();
  if (!student) {
    throw studentNotFound(studentId);
  }
}

/** Throws 404 unless the course exists. */
export async function requireCourse(db: Kysely<Tables>, courseId: number): Promise<void> {
  const course = await db.selectFrom("courses").select("id").where("id", "=", courseId).executeTakeFirst();
  if (!course) {
    throw courseNotFound(courseId);
  }
}

/**
 * Reads what bind checks about a course (404 if missing) and, on PostgreSQL, locks its row until
 * the transaction ends, so binds to one course queue up. SQLite has no FOR UPDATE: there the
 * transaction already holds the file's write lock.
 */
export async function lockCourse(db: Kysely<Tables>, dialect: DialectName, courseId: number) {
  const course = await db
    .selectFrom("courses")
    .select(["is_active", "max_students"])
    .where("id", "=", courseId)
    .$if(dialect === "postgres", (select) => select.forUpdate())
    .executeTakeFirst();
  if (!course) {
    throw courseNotFound(courseId);
  }
  return course;
}

export async function isEnrolled(db: Kysely<Tables>, studentId: number, courseId: number): Promise<boolean> {
  const enrollment = await db
    .selectFrom("enrollments")
    .select("id")
    .where("student_id", "=", studentId)
    .where("course_id", "=", courseId)
    .executeTakeFirst();
  return enrollment !== undefined;
}

/** How many seats of a course are taken. */
export async function countEnrollments(db: Kysely<Tables>, courseId: number): Promise<number> {
  const { count } = await db
    .selectFrom("enrollments")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("course_id", "=", courseId)
    .executeTakeFirstOrThrow();
  // PostgreSQL returns count(*) as a bigint string, SQLite as a number.
  return Number(count);
}
