import type { z } from "zod";
import { type CourseRow, readBoolean, type StudentRow } from "./db/index.ts";
import type { CourseSerializer, StudentSerializer } from "./schemas.ts";

/** A student as the API returns it: the output of `StudentSerializer`, so the type and the schema agree. */
export type Student = z.output<typeof StudentSerializer>;

/** A course as the API returns it: the output of `CourseSerializer`. */
export type Course = z.output<typeof CourseSerializer>;

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
