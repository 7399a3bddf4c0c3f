import type { Database } from "../../src/db/index.ts";
import { type CourseCreate, createCourse, createStudent, type StudentCreate } from "../../src/services.ts";

/** A valid student whose unique fields derive from `n`. */
export function studentInput(n: number, overrides: Partial<StudentCreate> = {}): StudentCreate {
  return {
    name: `Student ${n}`,
    email: `student${n}@example.edu`,
    age: 20,
    student_id: `S${n}`,
    ...overrides,
  };
}

/** Creates students 1..count and returns their ids. */
export async function createStudents(database: Database, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 1; n <= count; n++) {
    ids.push((await createStudent(database, studentInput(n))).id);
  }
  return ids;
}

let courseNumber = 0;

/** Creates a course with a unique code and the given overrides; returns its id. */
export async function createTestCourse(
  database: Database,
  overrides: Partial<CourseCreate> = {},
): Promise<number> {
  courseNumber += 1;
  const course = await createCourse(database, { name: "Databases", code: `C${courseNumber}`, ...overrides });
  return course.id;
}

/** How many enrolments the database holds for a course. */
export async function storedEnrollments(database: Database, courseId: number): Promise<number> {
  const rows = await database.kysely
    .selectFrom("enrollments")
    .select("student_id")
    .where("course_id", "=", courseId)
    .execute();
  return rows.length;
}
