import { describe, expect, it } from "vitest";
import { bindCourse } from "../src/services.ts";
import { createStudents, createTestCourse, storedEnrollments } from "./support/fixtures.ts";
import { outcome, tally } from "./support/outcomes.ts";
import { dialects, useFreshDatabase } from "./support/test-databases.ts";

describe.each(dialects)("concurrent binds on %s", (dialect) => {
  const db = useFreshDatabase(dialect);

  it("50 students racing for 5 seats: exactly 5 get one, 45 hear the course is full", async () => {
    const studentIds = await createStudents(db(), 50);
    const courseId = await createTestCourse(db(), { max_students: 5 });

    const results = await Promise.allSettled(
      studentIds.map((studentId) => bindCourse(db(), studentId, courseId)),
    );

    expect(tally(results.map(outcome))).toEqual({
      ok: 5,
      [`422 Course ${courseId} is full: 5 of 5 seats taken`]: 45,
    });
    expect(await storedEnrollments(db(), courseId)).toBe(5);
  });

  it("20 identical binds at once store one enrolment; the other 19 get 409", async () => {
    const [studentId] = await createStudents(db(), 1);
    const courseId = await createTestCourse(db());

    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => bindCourse(db(), studentId!, courseId)),
    );

    expect(tally(results.map(outcome))).toEqual({
      ok: 1,
      [`409 Student ${studentId} is already enrolled in course ${courseId}`]: 19,
    });
    expect(await storedEnrollments(db(), courseId)).toBe(1);
  });
});
