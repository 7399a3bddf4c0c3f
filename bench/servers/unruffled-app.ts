// unruffled (packages/unruffled): typed endpoints, Zod validation, the same routes as its peers. The app is
// shared by the HTTP server (servers/unruffled.ts) and the in-process overhead benchmark (overhead.ts).
import { compression, cors, createApp } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { memoryStore, rateLimit } from "unruffled/rate-limit";
import { dependency, endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
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

// The secured list, as an app would write it: paging as a dependency, the token checked by a scheme.
const paging = dependency({
  params: {
    page: p.Query(z.int(), { default: 1, ge: 1 }),
    size: p.Query(z.int(), { default: 10, ge: 1, le: 100 }),
  },
  resolve: (_request, { page, size }) => ({ offset: (page - 1) * size, limit: size }),
});

const bearer = httpBearer({ verify: (token) => (token === "bench-token" ? { name: "bench" } : null) });

const secureList = endpoint({
  params: { paging: p.Depends(paging), user: p.Security(bearer) },
  returns: JsonResponse,
  handler: (_request, { paging: _paging, user: _user }) =>
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

// A page of text above compression's threshold, for the checks that compression is on.
const longHello = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("Hello, World! ".repeat(100)),
});

// The declared model leaves the rows' password hash out.
const listAllStudents = endpoint({
  returns: [p.ResponseSpec({ model: StudentPage })],
  handler: () => new JsonResponse({ code: 0, message: "success", data: STUDENT_ROWS }),
});

export const app = createApp({
  settings: {},
  // The limited hello's store: in this process's memory (issue 39's target is against /hello).
  rateLimitStore: memoryStore(),
  routes: [
    path("/hello", { endpoint: hello }),
    // The same endpoint behind a policy that never refuses in a run: what counting costs.
    path("/limited/hello", {
      endpoint: hello,
      rateLimits: [rateLimit({ name: "bench", limit: 1_000_000_000, window: 3600 })],
    }),
    path("/api/enroll", {
      routes: [
        path("/student-list", { endpoint: listStudents }),
        path("/bind", { endpoint: bind, methods: ["POST"] }),
        path("/secure-list", { endpoint: secureList }),
        path("/students", { endpoint: listAllStudents }),
      ],
    }),
    // The list again, under CORS and compression: the middleware on this group only.
    path("/mw", {
      middleware: [cors({ origins: ["https://app.example.com"] }), compression()],
      routes: [
        path("/api/enroll/student-list", { endpoint: listStudents }),
        path("/hello-long", { endpoint: longHello }),
      ],
    }),
  ],
});
