// Elysia on Bun with its own schemas (TypeBox's `t`, compiled by Elysia), as its users write it; the
// 422 names where each issue was found, as every server's does. Served by elysia.ts; measured in
// process beside unruffled's fetch handler by bench/fetch-overhead.ts (ELYSIA=1).
import { Elysia, t } from "elysia";
import { STUDENT_ROWS } from "../student-rows.ts";

const Student = t.Object({
  id: t.Integer(),
  name: t.String({ maxLength: 100 }),
  email: t.String(),
  age: t.Integer(),
  student_id: t.String({ maxLength: 20 }),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});

const ListQuery = t.Object({
  page: t.Integer({ minimum: 1, default: 1 }),
  size: t.Integer({ minimum: 1, maximum: 100, default: 10 }),
});

export const app = new Elysia()
  .onError(({ code, error, set }) => {
    if (code === "VALIDATION") {
      set.status = 422;
      return {
        detail: error.all.map((issue) => ({
          loc: [error.type, issue.path],
          msg: issue.summary ?? issue.message,
        })),
      };
    }
    if (code === "PARSE") {
      set.status = 400;
      return { detail: "Malformed JSON in request body" };
    }
  })
  .get("/hello", () => "Hello, World!")
  .get("/api/enroll/student-list", () => ({ code: 0, message: "success", data: [] }), { query: ListQuery })
  .get("/api/enroll/secure-list", () => ({ code: 0, message: "success", data: [] }), {
    query: ListQuery,
    beforeHandle({ headers, set }) {
      if (headers.authorization !== "Bearer bench-token") {
        set.status = 401;
        set.headers["www-authenticate"] = "Bearer";
        return { detail: "Not authenticated" };
      }
    },
  })
  .post(
    "/api/enroll/bind",
    ({ body }) => ({
      code: 0,
      message: `Student ${body.student_id} bound to course ${body.course_id}`,
      data: { student_id: body.student_id, course_id: body.course_id },
    }),
    {
      body: t.Object({
        student_id: t.Integer({ exclusiveMinimum: 0 }),
        course_id: t.Integer({ exclusiveMinimum: 0 }),
      }),
    },
  )
  // The response schema leaves the rows' password hash out (Elysia's normalize, exact-mirror).
  .get("/api/enroll/students", () => ({ code: 0, message: "success", data: STUDENT_ROWS }), {
    response: t.Object({ code: t.Integer(), message: t.String(), data: t.Array(Student) }),
  });
