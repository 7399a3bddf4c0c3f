import { type Expression, type SqlBool, sql } from "kysely";
import {
  alreadyEnrolled,
  courseFull,
  courseInactive,
  courseNotFound,
  duplicateCourseCode,
  duplicateEmail,
  duplicateStudentNumber,
  notEnrolled,
} from "./business-error.ts";
import {
  countEnrollments,
  type Database,
  isEnrolled,
  isUniqueViolation,
  lockCourse,
  nameContains,
  readBoolean,
  requireCourse,
  requireStudent,
  sqlBoolean,
  writeTransaction,
} from "./db/index.ts";
import { type Course, type Student, serializeCourse, serializeStudent } from "./serializers.ts";

export { BusinessError, type BusinessErrorCode } from "./business-error.ts";
export type { Course, Student } from "./serializers.ts";

/** A course's seats: how many are taken, of how many, and how many are left. */
export interface CourseSeats {
  course_id: number;
  enrolled: number;
  max_students: number;
  seats_left: number;
}

/** One page of a list, `page` counted from 1; `search` keeps names containing it, ignoring case. */
export interface ListQuery {
  page: number;
  size: number;
  search?: string | undefined;
}

export interface StudentCreate {
  name: string;
  email: string;
  age: number;
  /** The school's student number. */
  student_id: string;
}

/** Omitted fields take the schema's defaults: "" description, 3 credits, 50 seats, active. */
export interface CourseCreate {
  name: string;
  code: string;
  description?: string | undefined;
  credits?: number | undefined;
  max_students?: number | undefined;
  is_active?: boolean | undefined;
}

/** The pair a bind or unbind acted on: `data` of the BindResponse. */
export interface Enrollment {
  /** The student's `id`. */
  student_id: number;
  course_id: number;
}

/**
 * A page of students ordered by id.
 * @example await listStudents(database, { page: 1, size: 10, search: "ann" })
 */
export async function listStudents(database: Database, query: ListQuery): Promise<Student[]> {
  const select = database.kysely.selectFrom("students").selectAll();
  const rows = await onePage(select, database, query).execute();
  return rows.map(serializeStudent);
}

/** A page of courses ordered by id, like `listStudents`. */
export async function listCourses(database: Database, query: ListQuery): Promise<Course[]> {
  const select = database.kysely.selectFrom("courses").selectAll();
  const rows = await onePage(select, database, query).execute();
  return rows.map(serializeCourse);
}

/** What `onePage` needs of a select: both tables' selects have it. */
interface Pageable<Q> {
  where(condition: Expression<SqlBool>): Q;
  orderBy(column: "id"): Q;
  limit(count: number): Q;
  offset(count: number): Q;
}

/** The list rules both tables share: names containing `search`, ordered by id, one page. */
function onePage<Q extends Pageable<Q>>(select: Q, database: Database, query: ListQuery): Q {
  const filtered = query.search ? select.where(nameContains(database.dialect, query.search)) : select;
  return filtered
    .orderBy("id")
    .limit(query.size)
    .offset((query.page - 1) * query.size);
}

/**
 * Stores a new student; 409 if the email (in any case) or the student number is taken.
 * @example await createStudent(database, { name: "Ann", email: "ann@example.edu", age: 20, student_id: "S001" })
 */
export async function createStudent(database: Database, input: StudentCreate): Promise<Student> {
  const now = new Date().toISOString();
  try {
    const row = await database.kysely
      .insertInto("students")
      .values({
        name: input.name,
        email: input.email,
        age: input.age,
        student_id: input.student_id,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return serializeStudent(row);
  } catch (error) {
    if (!isUniqueViolation(error)) {
      throw error;
    }
    // Students are never deleted, so whichever value is stored now is the one that collided; an
    // email is taken whatever its case (the students_email_lower_unique index).
    const emailTaken = await database.kysely
      .selectFrom("students")
      .select("id")
      .where(sql`lower(email)`, "=", input.email.toLowerCase())
      .executeTakeFirst();
    throw emailTaken ? duplicateEmail(input.email) : duplicateStudentNumber(input.student_id);
  }
}

/**
 * Stores a new course; 409 if the code is taken.
 * @example await createCourse(database, { name: "Databases", code: "CS340", max_students: 30 })
 */
export async function createCourse(database: Database, input: CourseCreate): Promise<Course> {
  const now = new Date().toISOString();
  try {
    const row = await database.kysely
      .insertInto("courses")
      .values({
        name: input.name,
        code: input.code,
        description: input.description ?? "",
        credits: input.credits,
        max_students: input.max_students,
        is_active: input.is_active === undefined ? undefined : sqlBoolean(input.is_active),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return serializeCourse(row);
  } catch (error) {
    throw isUniqueViolation(error) ? duplicateCourseCode(input.code) : error;
  }
}

/**
 * Enrols a student in a course. Checked in this order: student and course exist (404), not yet
 * enrolled (409), course active (422), a seat left (422). Atomic under concurrent binds, across
 * processes too: the course's seats are counted and taken under one lock.
 * @example await bindCourse(database, 1, 2) // { student_id: 1, course_id: 2 }
 */
export async function bindCourse(
  database: Database,
  studentId: number,
  courseId: number,
): Promise<Enrollment> {
  let enrollment: Enrollment;
  try {
    enrollment = await writeTransaction(database.kysely, database.dialect, async (trx) => {
      await requireStudent(trx, studentId);
      const course = await lockCourse(trx, database.dialect, courseId);
      if (await isEnrolled(trx, studentId, courseId)) {
        throw alreadyEnrolled(studentId, courseId);
      }
      if (!readBoolean(course.is_active)) {
        throw courseInactive(courseId);
      }
      if ((await countEnrollments(trx, courseId)) >= course.max_students) {
        throw courseFull(courseId, course.max_students);
      }
      await trx
        .insertInto("enrollments")
        .values({ student_id: studentId, course_id: courseId, created_at: new Date().toISOString() })
        .execute();
      return { student_id: studentId, course_id: courseId };
    });
  } catch (error) {
    // The unique constraint is the last guard should two binds of one pair ever pass the checks.
    throw isUniqueViolation(error) ? alreadyEnrolled(studentId, courseId) : error;
  }
  await database.seatChanges.announce(courseId);
  return enrollment;
}

/**
 * Removes a student from a course: 404 if either does not exist, 409 if not enrolled.
 * @example await unbindCourse(database, 1, 2) // { student_id: 1, course_id: 2 }
 */
export async function unbindCourse(
  database: Database,
  studentId: number,
  courseId: number,
): Promise<Enrollment> {
  const { numDeletedRows } = await database.kysely
    .deleteFrom("enrollments")
    .where("student_id", "=", studentId)
    .where("course_id", "=", courseId)
    .executeTakeFirst();
  if (numDeletedRows === 0n) {
    // Nothing deleted: find out why, for the right code.
    await requireStudent(database.kysely, studentId);
    await requireCourse(database.kysely, courseId);
    throw notEnrolled(studentId, courseId);
  }
  await database.seatChanges.announce(courseId);
  return { student_id: studentId, course_id: courseId };
}

/**
 * A course's seats now: 404 if the course does not exist.
 * @example await courseSeats(database, 2) // { course_id: 2, enrolled: 3, max_students: 30, seats_left: 27 }
 */
export async function courseSeats(database: Database, courseId: number): Promise<CourseSeats> {
  const course = await database.kysely
    .selectFrom("courses")
    .select("max_students")
    .where("id", "=", courseId)
    .executeTakeFirst();
  if (!course) {
    throw courseNotFound(courseId);
  }
  const enrolled = await countEnrollments(database.kysely, courseId);
  return {
    course_id: courseId,
    enrolled,
    max_students: course.max_students,
    seats_left: Math.max(0, course.max_students - enrolled),
  };
}

/**
 * A course's seats now, then again after every bind and unbind of it (in any process, on
 * PostgreSQL), until `signal` aborts: the client went away.
 * @example for await (const seats of followSeats(database, 2, request.signal)) send(seats)
 */
export async function* followSeats(
  database: Database,
  courseId: number,
  signal: AbortSignal,
): AsyncGenerator<CourseSeats> {
  // Following first, then reading: a change in between is told, never missed.
  const changes = await database.seatChanges.follow(courseId, signal);
  yield await courseSeats(database, courseId);
  for await (const _change of changes) yield await courseSeats(database, courseId);
}
