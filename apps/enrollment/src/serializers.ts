import { type CourseRow, readBoolean, type StudentRow } from "./db/index.ts";

/** A student as the API returns it (the spec's StudentSerializer). */
export interface Student {
  id: number;
  name: string;
  email: string;
  age: number;
  /** The school's student number. */
  student_id: string;
  created_at: string;
  updated_at: string;
}

/** A course as the API returns it (the spec's CourseSerializer). */
export interface Course {
  id: number;
  name: string;
  code: string;
  description: string;
  credits: number;
  max_students: number;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

// Fields are copied one by one so a column added later is not published by accident.
export function serializeStudent(row: StudentRow): Student {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    age: row.age,
    student_id: row.student_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function serializeCourse(row: CourseRow): Course {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    description: row.description,
    credits: row.credits,
    max_students: row.max_students,
    is_active: readBoolean(row.is_active),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
