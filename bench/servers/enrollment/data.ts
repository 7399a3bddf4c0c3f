// The rows every enrollment server is seeded with (seed.ts), which the checks of
// bench/suites/enrollment.ts expect back. Plain data: the runner loads this file too.

export const STUDENTS = 2_000;
export const COURSES = 1_000;
/** Far more seats than a run can bind, so no bind is refused as "course full". */
export const SEATS = 1_000_000;

// A fixed date, so that every start serves exactly the same rows.
const CREATED = "2025-09-01T08:00:00.000Z";

/** The student stored with this id (ids are given in insertion order, from 1). */
export function student(id: number) {
  return {
    name: `Student ${id}`,
    email: `student${id}@example.edu`,
    age: 18 + (id % 10),
    student_id: `S${String(id).padStart(6, "0")}`,
    created_at: CREATED,
    updated_at: CREATED,
  };
}

/** The course stored with this id: active (the column's default), with `SEATS` seats. */
export function course(id: number) {
  return {
    name: `Course ${id}`,
    code: `C${id}`,
    description: "",
    max_students: SEATS,
    created_at: CREATED,
    updated_at: CREATED,
  };
}
