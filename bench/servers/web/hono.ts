// Hono 4 on the runtime's own server, validated with Zod through @hono/zod-validator, as Hono's
// users on Bun and Deno write it.
import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import { z } from "zod";
import { STUDENT_ROWS, StudentPage } from "../student-rows.ts";
import { listen } from "./listen.ts";

const ListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(10),
});

const BindRequest = z.object({
  student_id: z.int().gt(0),
  course_id: z.int().gt(0),
});

// The 422 of every server: each issue with where it was found.
type Issues = { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
const refuse =
  (where: string) =>
  (result: { success: boolean; error?: Issues }, c: { json: (body: unknown, status: 422) => Response }) => {
    if (result.success || result.error === undefined) return undefined;
    const issues = result.error.issues.map((issue) => ({
      loc: [where, ...issue.path.map(String)],
      msg: issue.message,
    }));
    return c.json({ detail: issues }, 422);
  };

const app = new Hono();

app.get("/hello", (c) => c.text("Hello, World!"));

app.get("/api/enroll/student-list", zValidator("query", ListQuery, refuse("query")), (c) => {
  const { page: _page, size: _size } = c.req.valid("query");
  return c.json({ code: 0, message: "success", data: [] });
});

app.get(
  "/api/enroll/secure-list",
  async (c, next) => {
    if (c.req.header("authorization") !== "Bearer bench-token") {
      return c.json({ detail: "Not authenticated" }, 401, { "www-authenticate": "Bearer" });
    }
    await next();
  },
  zValidator("query", ListQuery, refuse("query")),
  (c) => c.json({ code: 0, message: "success", data: [] }),
);

app.post("/api/enroll/bind", zValidator("json", BindRequest, refuse("body")), (c) => {
  const { student_id, course_id } = c.req.valid("json");
  return c.json({
    code: 0,
    message: `Student ${student_id} bound to course ${course_id}`,
    data: { student_id, course_id },
  });
});

app.get("/api/enroll/students", (c) =>
  c.json(StudentPage.parse({ code: 0, message: "success", data: STUDENT_ROWS })),
);

listen(app.fetch);
