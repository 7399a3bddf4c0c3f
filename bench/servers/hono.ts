// Hono 4 on @hono/node-server, validated with Zod through Hono's own `validator` middleware
// (safeParse by hand, which is what @hono/zod-validator does).
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { validator } from "hono/validator";
import { z } from "zod";
import { STUDENT_ROWS, StudentPage } from "./student-rows.ts";

const ListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(10),
});

const BindRequest = z.object({
  student_id: z.int().gt(0),
  course_id: z.int().gt(0),
});

function detail(error: z.ZodError, where: string) {
  return {
    detail: error.issues.map((issue) => ({
      loc: [where, ...issue.path.map(String)],
      msg: issue.message,
    })),
  };
}

const app = new Hono();

app.onError((error, c) => {
  if (error instanceof HTTPException) return c.json({ detail: error.message }, error.status);
  return c.json({ detail: "Internal Server Error" }, 500);
});

app.get("/hello", (c) => c.text("Hello, World!"));

app.get(
  "/api/enroll/student-list",
  validator("query", (value, c) => {
    const parsed = ListQuery.safeParse(value);
    if (!parsed.success) return c.json(detail(parsed.error, "query"), 422);
    return parsed.data;
  }),
  (c) => {
    const { page: _page, size: _size } = c.req.valid("query");
    return c.json({ code: 0, message: "success", data: [] });
  },
);

app.get(
  "/api/enroll/secure-list",
  async (c, next) => {
    if (c.req.header("authorization") !== "Bearer bench-token") {
      return c.json({ detail: "Not authenticated" }, 401, { "www-authenticate": "Bearer" });
    }
    await next();
  },
  validator("query", (value, c) => {
    const parsed = ListQuery.safeParse(value);
    if (!parsed.success) return c.json(detail(parsed.error, "query"), 422);
    return parsed.data;
  }),
  (c) => {
    const { page: _page, size: _size } = c.req.valid("query");
    return c.json({ code: 0, message: "success", data: [] });
  },
);

app.post(
  "/api/enroll/bind",
  validator("json", (value, c) => {
    const parsed = BindRequest.safeParse(value);
    if (!parsed.success) return c.json(detail(parsed.error, "body"), 422);
    return parsed.data;
  }),
  (c) => {
    const { student_id, course_id } = c.req.valid("json");
    return c.json({
      code: 0,
      message: `Student ${student_id} bound to course ${course_id}`,
      data: { student_id, course_id },
    });
  },
);

// Zod's parse leaves the rows' password hash out.
app.get("/api/enroll/students", (c) =>
  c.json(StudentPage.parse({ code: 0, message: "success", data: STUDENT_ROWS })),
);

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: "127.0.0.1" }, (info) => {
  console.log(`listening ${info.port}`);
});
