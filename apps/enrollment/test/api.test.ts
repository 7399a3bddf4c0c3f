import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { DialectName } from "../src/db/index.ts";
import {
  bindCourse,
  createCourse,
  createStudent,
  hello,
  listCourses,
  listStudents,
  unbindCourse,
} from "../src/endpoints.ts";
import type { CourseCreate } from "../src/schemas.ts";
import { type ApiHost, outcome, TEST_ADMIN_TOKEN, useApi } from "./support/api.ts";
import { dialects } from "./support/test-databases.ts";

const isoTimestamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

// On each database in process, and served on Bun on its embedded one (issue 40: the sample service
// on Bun passes its API tests, through the same typed calls over HTTP).
const hosts: Array<[DialectName, ApiHost]> = [
  ...dialects.map((dialect): [DialectName, ApiHost] => [dialect, "in process"]),
  ["sqlite", "on Bun"],
];

describe.each(hosts)("the enrollment API on %s, %s", (dialect, host) => {
  const api = useApi(dialect, {}, host);
  const client = () => api.client();

  const student = (n: number) => ({
    name: `Student ${n}`,
    email: `s${n}@example.edu`,
    age: 20,
    student_id: `S${n}`,
  });
  const seed = async (students: number, course: Partial<z.input<typeof CourseCreate>> = {}) => {
    for (let n = 1; n <= students; n++) await client().call(createStudent, { body: student(n) });
    await client().call(createCourse, { body: { name: "Databases", code: "CS340", ...course } });
  };

  describe("success paths", () => {
    it("says hello in plain text", async () => {
      const response = await client().call(hello);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(response.text).toBe("Hello, World!");
    });

    it("creates a student", async () => {
      const response = await client().call(createStudent, {
        body: { name: "Ann Lee", email: "ann@example.edu", age: 20, student_id: "S2024001" },
      });
      expect(outcome(response)).toEqual({
        status: 200,
        body: {
          code: 0,
          message: "Student 1 created",
          data: {
            id: 1,
            name: "Ann Lee",
            email: "ann@example.edu",
            age: 20,
            student_id: "S2024001",
            created_at: isoTimestamp,
            updated_at: isoTimestamp,
          },
        },
      });
    });

    it("creates a course with the defaults", async () => {
      const response = await client().call(createCourse, { body: { name: "Databases", code: "CS340" } });
      expect(outcome(response)).toEqual({
        status: 200,
        body: {
          code: 0,
          message: "Course 1 created",
          data: {
            id: 1,
            name: "Databases",
            code: "CS340",
            description: "",
            credits: 3,
            max_students: 50,
            is_active: true,
            created_at: isoTimestamp,
            updated_at: isoTimestamp,
          },
        },
      });
    });

    it("binds and unbinds a student and a course", async () => {
      await seed(1);
      const bound = await client().call(bindCourse, { body: { student_id: 1, course_id: 1 } });
      expect(outcome(bound)).toEqual({
        status: 200,
        body: { code: 0, message: "Student 1 enrolled in course 1", data: { student_id: 1, course_id: 1 } },
      });
      const unbound = await client().call(unbindCourse, { body: { student_id: 1, course_id: 1 } });
      expect(outcome(unbound)).toEqual({
        status: 200,
        body: {
          code: 0,
          message: "Student 1 withdrawn from course 1",
          data: { student_id: 1, course_id: 1 },
        },
      });
    });

    it("pages students ordered by id, and searches names ignoring case", async () => {
      await seed(12);
      const page2 = await client().call(listStudents, { page: 2, size: 5 });
      expect(page2.status).toBe(200);
      expect(page2.json().data.map((row) => row.id)).toEqual([6, 7, 8, 9, 10]);
      // The defaults: page 1, 10 a page.
      const defaults = await client().call(listStudents);
      expect(defaults.json().data.map((row) => row.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const search = await client().call(listStudents, { search: "STUDENT 1" });
      expect(search.json().data.map((row) => row.name)).toEqual([
        "Student 1",
        "Student 10",
        "Student 11",
        "Student 12",
      ]);
      const beyond = await client().get("/api/enroll/student-list", { query: { page: 9 } });
      expect(outcome(beyond)).toEqual({ status: 200, body: { code: 0, message: "success", data: [] } });
    });

    it("lists courses", async () => {
      await seed(0);
      const list = await client().call(listCourses, { size: 1 });
      expect(list.status).toBe(200);
      expect(list.json()).toMatchObject({
        code: 0,
        message: "success",
        data: [{ id: 1, code: "CS340", is_active: true }],
      });
    });
  });

  // Where the socket is the point: headers and bodies as they cross the wire, and a refused body.
  describe("over loopback HTTP", () => {
    const postJson = async (path: string, body: unknown) => {
      const server = await api.http();
      const response = await server.fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };

    it("says hello in plain text", async () => {
      const response = await (await api.http()).fetch("/api/enroll/hello");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await response.text()).toBe("Hello, World!");
    });

    it("creates a student and a course and binds them", async () => {
      expect(await postJson("/api/enroll/student-create", student(1))).toMatchObject({
        status: 200,
        body: { code: 0, message: "Student 1 created" },
      });
      expect(await postJson("/api/enroll/course-create", { name: "Databases", code: "CS340" })).toMatchObject(
        {
          status: 200,
          body: { code: 0, message: "Course 1 created" },
        },
      );
      expect(await postJson("/api/enroll/bind", { student_id: 1, course_id: 1 })).toEqual({
        status: 200,
        body: { code: 0, message: "Student 1 enrolled in course 1", data: { student_id: 1, course_id: 1 } },
      });
    });

    it("413 for a body past the limit", async () => {
      const huge = { name: "x".repeat(2 * 1024 * 1024), code: "BIG" };
      expect(await postJson("/api/enroll/course-create", huge)).toEqual({
        status: 200,
        body: { code: 413, message: "Request body is larger than the limit of 1048576 bytes", data: null },
      });
    });
  });

  describe("every failure is HTTP 200 with the spec's code", () => {
    it.each([
      [
        "page 0",
        "/api/enroll/student-list?page=0",
        [
          {
            loc: ["query", "page"],
            msg: "Too small: expected number to be >=1",
            type: "too_small",
            input: 0,
          },
        ],
      ],
      [
        "size 101",
        "/api/enroll/course-list?size=101",
        [
          {
            loc: ["query", "size"],
            msg: "Too big: expected number to be <=100",
            type: "too_big",
            input: 101,
          },
        ],
      ],
      [
        "size 0",
        "/api/enroll/student-list?size=0",
        [
          {
            loc: ["query", "size"],
            msg: "Too small: expected number to be >=1",
            type: "too_small",
            input: 0,
          },
        ],
      ],
      [
        'page "abc"',
        "/api/enroll/student-list?page=abc",
        [
          {
            loc: ["query", "page"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "abc",
          },
        ],
      ],
    ])("422 for %s", async (_name, url, errors) => {
      expect(await api.get(url)).toEqual({
        status: 200,
        body: { code: 422, message: "Request validation failed", data: { errors } },
      });
    });

    it.each([
      [
        "missing ids",
        {},
        [
          { loc: ["body", "student_id"], msg: "Field required", type: "missing", input: null },
          { loc: ["body", "course_id"], msg: "Field required", type: "missing", input: null },
        ],
      ],
      [
        "non-positive ids",
        { student_id: 0, course_id: -3 },
        [
          {
            loc: ["body", "student_id"],
            msg: "Too small: expected number to be >0",
            type: "too_small",
            input: 0,
          },
          {
            loc: ["body", "course_id"],
            msg: "Too small: expected number to be >0",
            type: "too_small",
            input: -3,
          },
        ],
      ],
      [
        "wrong JSON types",
        { student_id: "1", course_id: 2.5 },
        [
          {
            loc: ["body", "student_id"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "1",
          },
          {
            loc: ["body", "course_id"],
            msg: "Invalid input: expected int, received number",
            type: "invalid_type",
            input: 2.5,
          },
        ],
      ],
    ])("422 for a bind with %s", async (_name, body, errors) => {
      expect(await api.post("/api/enroll/bind", body)).toEqual({
        status: 200,
        body: { code: 422, message: "Request validation failed", data: { errors } },
      });
    });

    it("400 for malformed JSON", async () => {
      const response = await client().post("/api/enroll/bind", {
        body: '{"student_id": 1,',
        headers: { "content-type": "application/json" },
      });
      expect(outcome(response)).toEqual({
        status: 200,
        body: {
          code: 400,
          // The parser's own words: V8's on Node, JavaScriptCore's on Bun (docs/runtimes.md).
          message:
            host === "on Bun"
              ? "Malformed JSON body: JSON Parse error: Property name must be a string literal"
              : "Malformed JSON body: Expected double-quoted property name in JSON at position 17 (line 1 column 18)",
          data: null,
        },
      });
    });

    it("400 for a body that is not JSON", async () => {
      const response = await client().post("/api/enroll/bind", { form: { student_id: "1" } });
      expect(response.status).toBe(200);
      expect(response.json()).toEqual({
        code: 400,
        message: "Expected a JSON body (application/json), got application/x-www-form-urlencoded",
        data: null,
      });
    });

    it("404 for an unknown student or course, naming the id", async () => {
      await seed(1);
      expect(await api.post("/api/enroll/bind", { student_id: 9, course_id: 1 })).toEqual({
        status: 200,
        body: { code: 404, message: "Student 9 not found", data: null },
      });
      expect(await api.post("/api/enroll/bind", { student_id: 1, course_id: 7 })).toEqual({
        status: 200,
        body: { code: 404, message: "Course 7 not found", data: null },
      });
    });

    it("404 for an unbind of an unknown student or course, naming the id", async () => {
      await seed(1);
      expect(await api.post("/api/enroll/unbind", { student_id: 9, course_id: 1 })).toEqual({
        status: 200,
        body: { code: 404, message: "Student 9 not found", data: null },
      });
      expect(await api.post("/api/enroll/unbind", { student_id: 1, course_id: 7 })).toEqual({
        status: 200,
        body: { code: 404, message: "Course 7 not found", data: null },
      });
    });

    it("422 past the length limits (student name 100, course name 200, course code 20) and for age 0", async () => {
      const tooLong = (field: string, max: number) => ({
        loc: ["body", field],
        msg: `Too big: expected string to have <=${max} characters`,
        type: "too_big",
        input: "x".repeat(max + 1),
      });
      expect(
        await api.post("/api/enroll/student-create", { ...student(1), name: "x".repeat(101), age: 0 }),
      ).toEqual({
        status: 200,
        body: {
          code: 422,
          message: "Request validation failed",
          data: {
            errors: [
              tooLong("name", 100),
              {
                loc: ["body", "age"],
                msg: "Too small: expected number to be >=1",
                type: "too_small",
                input: 0,
              },
            ],
          },
        },
      });
      expect(
        await api.post("/api/enroll/course-create", { name: "x".repeat(201), code: "x".repeat(21) }),
      ).toEqual({
        status: 200,
        body: {
          code: 422,
          message: "Request validation failed",
          data: { errors: [tooLong("name", 200), tooLong("code", 20)] },
        },
      });
      // At the limits, both are stored.
      expect(
        await api.post("/api/enroll/student-create", { ...student(1), name: "x".repeat(100), age: 1 }),
      ).toMatchObject({ status: 200, body: { code: 0, data: { name: "x".repeat(100), age: 1 } } });
      expect(
        await api.post("/api/enroll/course-create", { name: "x".repeat(200), code: "x".repeat(20) }),
      ).toMatchObject({
        status: 200,
        body: { code: 0, data: { name: "x".repeat(200), code: "x".repeat(20) } },
      });
    });

    it("404 for an unknown path under /api/enroll", async () => {
      expect(await api.get("/api/enroll/nothing-here")).toEqual({
        status: 200,
        body: { code: 404, message: "No route GET /api/enroll/nothing-here", data: null },
      });
    });

    it("405 for a GET on /bind, naming the allowed methods, with its Allow header", async () => {
      expect(await api.get("/api/enroll/bind")).toEqual({
        status: 200,
        body: { code: 405, message: "Method GET not allowed; allowed: POST", data: null },
      });
      const server = await api.http();
      const answer = await server.fetch("/api/enroll/bind");
      expect([answer.status, answer.headers.get("allow"), await answer.json()]).toEqual([
        200,
        "POST",
        { code: 405, message: "Method GET not allowed; allowed: POST", data: null },
      ]);
    });

    it("409 for an email that differs from a stored one only in case, as for the same email", async () => {
      await seed(1);
      for (const email of ["S1@EXAMPLE.EDU", "s1@Example.edu"]) {
        expect(await api.post("/api/enroll/student-create", { ...student(2), email })).toEqual({
          status: 200,
          body: { code: 409, message: `A student with email "${email}" already exists`, data: null },
        });
      }
      expect(
        await api.post("/api/enroll/student-create", { ...student(2), email: "s2@example.edu" }),
      ).toMatchObject({
        status: 200,
        body: { code: 0 },
      });
    });

    it("409 for a second bind, an unbind of a pair not enrolled, and duplicates", async () => {
      await seed(1);
      await api.post("/api/enroll/bind", { student_id: 1, course_id: 1 });
      expect(await api.post("/api/enroll/bind", { student_id: 1, course_id: 1 })).toEqual({
        status: 200,
        body: { code: 409, message: "Student 1 is already enrolled in course 1", data: null },
      });
      await api.post("/api/enroll/unbind", { student_id: 1, course_id: 1 });
      expect(await api.post("/api/enroll/unbind", { student_id: 1, course_id: 1 })).toEqual({
        status: 200,
        body: { code: 409, message: "Student 1 is not enrolled in course 1", data: null },
      });
      expect(
        await api.post("/api/enroll/student-create", { ...student(2), email: "s1@example.edu" }),
      ).toEqual({
        status: 200,
        body: { code: 409, message: 'A student with email "s1@example.edu" already exists', data: null },
      });
      expect(await api.post("/api/enroll/student-create", { ...student(2), student_id: "S1" })).toEqual({
        status: 200,
        body: { code: 409, message: 'A student with student number "S1" already exists', data: null },
      });
      expect(await api.post("/api/enroll/course-create", { name: "Other", code: "CS340" })).toEqual({
        status: 200,
        body: { code: 409, message: 'A course with code "CS340" already exists', data: null },
      });
    });

    it("422 for an inactive course and a full one", async () => {
      await seed(2, { max_students: 1 });
      await api.post("/api/enroll/course-create", { name: "Closed", code: "OLD1", is_active: false });
      expect(await api.post("/api/enroll/bind", { student_id: 1, course_id: 2 })).toEqual({
        status: 200,
        body: { code: 422, message: "Course 2 is not active", data: null },
      });
      await api.post("/api/enroll/bind", { student_id: 1, course_id: 1 });
      expect(await api.post("/api/enroll/bind", { student_id: 2, course_id: 1 })).toEqual({
        status: 200,
        body: { code: 422, message: "Course 1 is full: 1 of 1 seats taken", data: null },
      });
    });

    it("422 for invalid student and course fields", async () => {
      expect(
        await api.post("/api/enroll/student-create", {
          name: "",
          email: "not-an-email",
          age: 151,
          student_id: "x".repeat(21),
        }),
      ).toEqual({
        status: 200,
        body: {
          code: 422,
          message: "Request validation failed",
          data: {
            errors: [
              {
                loc: ["body", "name"],
                msg: "Too small: expected string to have >=1 characters",
                type: "too_small",
                input: "",
              },
              {
                loc: ["body", "email"],
                msg: "Invalid email address",
                type: "invalid_format",
                input: "not-an-email",
              },
              {
                loc: ["body", "age"],
                msg: "Too big: expected number to be <=150",
                type: "too_big",
                input: 151,
              },
              {
                loc: ["body", "student_id"],
                msg: "Too big: expected string to have <=20 characters",
                type: "too_big",
                input: "x".repeat(21),
              },
            ],
          },
        },
      });
      expect(await api.post("/api/enroll/course-create", { name: "X", code: "Y", max_students: 0 })).toEqual({
        status: 200,
        body: {
          code: 422,
          message: "Request validation failed",
          data: {
            errors: [
              {
                loc: ["body", "max_students"],
                msg: "Too small: expected number to be >=1",
                type: "too_small",
                input: 0,
              },
            ],
          },
        },
      });
    });

    // The database is the test's own only in process.
    it.skipIf(host === "on Bun")(
      "500 with a generic message and no details when the database fails",
      async () => {
        await api.db().close();
        expect(await api.get("/api/enroll/student-list")).toEqual({
          status: 200,
          body: { code: 500, message: "Internal server error", data: null },
        });
        expect(api.internalErrors).toHaveLength(1);
      },
    );
  });
});
