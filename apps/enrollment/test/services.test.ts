import { describe, expect, it } from "vitest";
import {
  bindCourse,
  createCourse,
  createStudent,
  listCourses,
  listStudents,
  unbindCourse,
} from "../src/services.ts";
import { expectBusinessError } from "./support/expect-business-error.ts";
import { createStudents, createTestCourse, storedEnrollments, studentInput } from "./support/fixtures.ts";
import { dialects, useFreshDatabase } from "./support/test-databases.ts";

const isoTimestamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe.each(dialects)("services on %s", (dialect) => {
  const db = useFreshDatabase(dialect);

  describe("createStudent", () => {
    it("stores the student and returns it serialized", async () => {
      const student = await createStudent(db(), {
        name: "Ann Lee",
        email: "ann@example.edu",
        age: 20,
        student_id: "S2024001",
      });
      expect(student).toEqual({
        id: 1,
        name: "Ann Lee",
        email: "ann@example.edu",
        age: 20,
        student_id: "S2024001",
        created_at: isoTimestamp,
        updated_at: student.created_at,
      });
      expect(await listStudents(db(), { page: 1, size: 10 })).toEqual([student]);
    });

    it("refuses a taken email with 409 naming it", async () => {
      await createStudent(db(), studentInput(1, { email: "ann@example.edu" }));
      await expectBusinessError(
        createStudent(db(), studentInput(2, { email: "ann@example.edu" })),
        409,
        'A student with email "ann@example.edu" already exists',
      );
    });

    it("refuses a taken student number with 409 naming it", async () => {
      await createStudent(db(), studentInput(1, { student_id: "S2024001" }));
      await expectBusinessError(
        createStudent(db(), studentInput(2, { student_id: "S2024001" })),
        409,
        'A student with student number "S2024001" already exists',
      );
      expect(await listStudents(db(), { page: 1, size: 10 })).toHaveLength(1);
    });
  });

  describe("createCourse", () => {
    it("applies the defaults: empty description, 3 credits, 50 seats, active", async () => {
      const course = await createCourse(db(), { name: "Databases", code: "CS340" });
      expect(course).toEqual({
        id: 1,
        name: "Databases",
        code: "CS340",
        description: "",
        credits: 3,
        max_students: 50,
        is_active: true,
        created_at: isoTimestamp,
        updated_at: course.created_at,
      });
    });

    it("stores every given field, is_active as a real boolean", async () => {
      const course = await createCourse(db(), {
        name: "Compilers",
        code: "CS451",
        description: "Parsing and code generation",
        credits: 5,
        max_students: 12,
        is_active: false,
      });
      expect(course).toMatchObject({
        description: "Parsing and code generation",
        credits: 5,
        max_students: 12,
      });
      expect(course.is_active).toBe(false);
      const [listed] = await listCourses(db(), { page: 1, size: 10 });
      expect(listed?.is_active).toBe(false);
    });

    it("refuses a taken code with 409 naming it", async () => {
      await createCourse(db(), { name: "Databases", code: "CS340" });
      await expectBusinessError(
        createCourse(db(), { name: "Other", code: "CS340" }),
        409,
        'A course with code "CS340" already exists',
      );
    });
  });

  describe("listStudents and listCourses", () => {
    it("returns the requested page, ordered by id", async () => {
      await createStudents(db(), 5);
      const idsOf = async (page: number, size: number) =>
        (await listStudents(db(), { page, size })).map((student) => student.id);
      expect(await idsOf(1, 2)).toEqual([1, 2]);
      expect(await idsOf(2, 2)).toEqual([3, 4]);
      expect(await idsOf(3, 2)).toEqual([5]);
      expect(await idsOf(4, 2)).toEqual([]);
      expect(await idsOf(1, 100)).toEqual([1, 2, 3, 4, 5]);
    });

    it("searches names case-insensitively, including non-ASCII letters", async () => {
      for (const [n, name] of ["Ann Lee", "JOANNA Smith", "Bob", "Émile Zola"].entries()) {
        await createStudent(db(), studentInput(n, { name }));
      }
      const namesFor = async (search: string) =>
        (await listStudents(db(), { page: 1, size: 10, search })).map((student) => student.name);
      expect(await namesFor("ann")).toEqual(["Ann Lee", "JOANNA Smith"]);
      expect(await namesFor("ANN")).toEqual(["Ann Lee", "JOANNA Smith"]);
      expect(await namesFor("émile")).toEqual(["Émile Zola"]);
      expect(await namesFor("nobody")).toEqual([]);
      expect(await namesFor("")).toEqual(["Ann Lee", "JOANNA Smith", "Bob", "Émile Zola"]);
    });

    it("treats % and _ and \\ in the search text literally", async () => {
      for (const [n, name] of ["100% Pure", "100 Pure", "a_b", "axb", "back\\slash", "backslash"].entries()) {
        await createStudent(db(), studentInput(n, { name }));
      }
      const namesFor = async (search: string) =>
        (await listStudents(db(), { page: 1, size: 10, search })).map((student) => student.name);
      expect(await namesFor("%")).toEqual(["100% Pure"]);
      expect(await namesFor("0% p")).toEqual(["100% Pure"]);
      expect(await namesFor("_")).toEqual(["a_b"]);
      expect(await namesFor("a_b")).toEqual(["a_b"]);
      expect(await namesFor("\\")).toEqual(["back\\slash"]);
    });

    it("pages through search results", async () => {
      for (const n of [1, 2, 3, 4, 5]) {
        await createStudent(db(), studentInput(n, { name: n % 2 === 1 ? `Odd ${n}` : `Even ${n}` }));
      }
      const page = await listStudents(db(), { page: 2, size: 2, search: "odd" });
      expect(page.map((student) => [student.id, student.name])).toEqual([[5, "Odd 5"]]);
    });

    it("lists courses the same way", async () => {
      for (const [n, name] of ["Databases", "Data Science", "Compilers"].entries()) {
        await createCourse(db(), { name, code: `CS${n}` });
      }
      const page1 = await listCourses(db(), { page: 1, size: 2 });
      expect(page1.map((course) => [course.id, course.code])).toEqual([
        [1, "CS0"],
        [2, "CS1"],
      ]);
      const found = await listCourses(db(), { page: 1, size: 10, search: "DATA" });
      expect(found.map((course) => course.name)).toEqual(["Databases", "Data Science"]);
      expect(found.map((course) => course.is_active)).toEqual([true, true]);
    });
  });

  describe("bindCourse", () => {
    it("enrols the student and returns the pair", async () => {
      const [studentId] = await createStudents(db(), 1);
      const courseId = await createTestCourse(db());
      expect(await bindCourse(db(), studentId!, courseId)).toEqual({
        student_id: studentId,
        course_id: courseId,
      });
      expect(await storedEnrollments(db(), courseId)).toBe(1);
    });

    it("answers 404 naming a missing student", async () => {
      const courseId = await createTestCourse(db());
      await expectBusinessError(bindCourse(db(), 99, courseId), 404, "Student 99 not found");
    });

    it("answers 404 naming a missing course", async () => {
      const [studentId] = await createStudents(db(), 1);
      await expectBusinessError(bindCourse(db(), studentId!, 77), 404, "Course 77 not found");
    });

    it("answers 422 for an inactive course", async () => {
      const [studentId] = await createStudents(db(), 1);
      const courseId = await createTestCourse(db(), { is_active: false });
      await expectBusinessError(
        bindCourse(db(), studentId!, courseId),
        422,
        `Course ${courseId} is not active`,
      );
      expect(await storedEnrollments(db(), courseId)).toBe(0);
    });

    it("answers 422 when every seat is taken", async () => {
      const [first, second, third] = await createStudents(db(), 3);
      const courseId = await createTestCourse(db(), { max_students: 2 });
      await bindCourse(db(), first!, courseId);
      await bindCourse(db(), second!, courseId);
      await expectBusinessError(
        bindCourse(db(), third!, courseId),
        422,
        `Course ${courseId} is full: 2 of 2 seats taken`,
      );
      expect(await storedEnrollments(db(), courseId)).toBe(2);
    });

    it("answers 409 when the student is already enrolled", async () => {
      const [studentId] = await createStudents(db(), 1);
      const courseId = await createTestCourse(db(), { max_students: 1 });
      await bindCourse(db(), studentId!, courseId);
      // Already enrolled wins over "full": repeating a successful bind says what happened.
      await expectBusinessError(
        bindCourse(db(), studentId!, courseId),
        409,
        `Student ${studentId} is already enrolled in course ${courseId}`,
      );
      expect(await storedEnrollments(db(), courseId)).toBe(1);
    });
  });

  describe("unbindCourse", () => {
    it("removes the enrolment, freeing the seat", async () => {
      const [first, second] = await createStudents(db(), 2);
      const courseId = await createTestCourse(db(), { max_students: 1 });
      await bindCourse(db(), first!, courseId);
      expect(await unbindCourse(db(), first!, courseId)).toEqual({ student_id: first, course_id: courseId });
      expect(await storedEnrollments(db(), courseId)).toBe(0);
      await bindCourse(db(), second!, courseId);
    });

    it("answers 409 when the student is not enrolled", async () => {
      const [studentId] = await createStudents(db(), 1);
      const courseId = await createTestCourse(db());
      await expectBusinessError(
        unbindCourse(db(), studentId!, courseId),
        409,
        `Student ${studentId} is not enrolled in course ${courseId}`,
      );
    });

    it("answers 404 naming a missing student or course", async () => {
      const [studentId] = await createStudents(db(), 1);
      const courseId = await createTestCourse(db());
      await expectBusinessError(unbindCourse(db(), 99, courseId), 404, "Student 99 not found");
      await expectBusinessError(unbindCourse(db(), studentId!, 77), 404, "Course 77 not found");
    });
  });
});
