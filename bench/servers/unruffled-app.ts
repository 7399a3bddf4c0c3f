// unruffled (packages/unruffled): typed endpoints, Zod validation, the same three routes. The app is
// shared by the HTTP server (servers/unruffled.ts) and the in-process overhead benchmark (overhead.ts).
import { createApp } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";
import { STUDENT_ROWS, StudentPage } from "./student-rows.ts";

const hello = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("Hello, World!"),
});

const listStudents = endpoint({
  params: {
    page: p.Query(z.int(), { default: 1, ge: 1 }),
    size: p.Query(z.int(), { default: 10, ge: 1, le: 100 }),
  },
  returns: JsonResponse,
  handler: (_request, { page: _page, size: _size }) =>
    new JsonResponse({ code: 0, message: "success", data: [] }),
});

const BindRequest = z.object({
  student_id: z.int().gt(0),
  course_id: z.int().gt(0),
});

const bind = endpoint({
  params: { body: p.Json(BindRequest) },
  returns: JsonResponse,
  handler: (_request, { body }) =>
    new JsonResponse({
      code: 0,
      message: `Student ${body.student_id} bound to course ${body.course_id}`,
      data: { student_id: body.student_id, course_id: body.course_id },
    }),
});

// The declared model leaves the rows' password hash out.
const listAllStudents = endpoint({
  returns: [p.ResponseSpec({ model: StudentPage })],
  handler: () => new JsonResponse({ code: 0, message: "success", data: STUDENT_ROWS }),
});

export const app = createApp({
  settings: {},
  routes: [
    path("/hello", { endpoint: hello }),
    path("/api/enroll", {
      routes: [
        path("/student-list", { endpoint: listStudents }),
        path("/bind", { endpoint: bind, methods: ["POST"] }),
        path("/students", { endpoint: listAllStudents }),
      ],
    }),
  ],
});
