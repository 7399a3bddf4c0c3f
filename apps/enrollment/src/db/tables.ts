import type { Generated, Selectable } from "kysely";
import type { StoredBoolean } from "./stored-boolean.ts";

/** Timestamps are ISO 8601 strings in both dialects, so rows read the same everywhere. */
export type Timestamp = string;

export interface StudentTable {
  id: Generated<number>;
  name: string;
  email: string;
  age: number;
  /** The school's student number, not a foreign key. */
  student_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CourseTable {
  id: Generated<number>;
  name: string;
  code: string;
  description: string;
  credits: Generated<number>;
  max_students: Generated<number>;
  /** Defaults to true; read it with `readBoolean()`. */
  is_active: StoredBoolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EnrollmentTable {
  id: Generated<number>;
  /** The student's `id`. */
  student_id: number;
  course_id: number;
  created_at: Timestamp;
}

/** The schema Kysely type-checks queries against. */
export interface Tables {
  students: StudentTable;
  courses: CourseTable;
  enrollments: EnrollmentTable;
}

export type StudentRow = Selectable<StudentTable>;
export type CourseRow = Selectable<CourseTable>;
