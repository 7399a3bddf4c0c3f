import { describe, expect, it } from "vitest";
import { loadDemoData } from "../src/demo-data.ts";
import { bindCourse, createStudent, listCourses, listStudents } from "../src/services.ts";
import { expectBusinessError } from "./support/expect-business-error.ts";
import { studentInput } from "./support/fixtures.ts";
import { dialects, useFreshDatabase } from "./support/test-databases.ts";

describe.each(dialects)("the demo data on %s", (dialect) => {
  const db = useFreshDatabase(dialect);

  it("loads 30 students, 8 courses and 71 enrolments, and adds nothing the second time", async () => {
    expect(await loadDemoData(db())).toEqual({ students: 30, courses: 8, enrollments: 71 });
    expect(await loadDemoData(db())).toEqual({ students: 0, courses: 0, enrollments: 0 });

    const students = await listStudents(db(), { page: 1, size: 100 });
    expect(students).toHaveLength(30);
    expect(students[2]).toMatchObject({
      name: "Chloé Martin",
      email: "chloe.martin@example.edu",
      student_id: "S2025003",
    });
    const courses = await listCourses(db(), { page: 1, size: 100 });
    expect(courses.map((course) => [course.code, course.max_students, course.is_active])).toEqual([
      ["CS101", 40, true],
      ["CS201", 30, true],
      ["CS340", 25, true],
      ["MATH150", 50, true],
      ["MATH220", 35, true],
      ["PHYS101", 40, true],
      ["HIST210", 4, true],
      ["ART105", 15, false],
    ]);
  });

  it("has a full course and an inactive one to try the 422 answers on", async () => {
    await loadDemoData(db());
    const newcomer = await createStudent(db(), studentInput(99));
    await expectBusinessError(bindCourse(db(), newcomer.id, 7), 422, "Course 7 is full: 4 of 4 seats taken");
    await expectBusinessError(bindCourse(db(), newcomer.id, 8), 422, "Course 8 is not active");
  });
});
