import { type App, type AppOptions, createApp, exceptionHandler, RequestValidationError } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

/** The seed's serializer: a named model shared by several envelopes. */
export const StudentSerializer = z
  .object({
    id: z.int(),
    name: z.string().min(1),
    email: z.email(),
    nickname: z.string().nullable().default(null),
  })
  .meta({ id: "Student" });

/** The seed's generic envelope: each call names its own component. */
export function BaseResponse<T extends z.ZodType>(data: T, id: string) {
  return z.object({ code: z.int(), message: z.string(), data }).meta({ id });
}

export const StudentListResponse = BaseResponse(z.array(StudentSerializer), "StudentListResponse");
export const StudentResponse = BaseResponse(StudentSerializer, "StudentResponse");

export const BindRequest = z
  .object({
    student_id: z.int().positive().meta({ description: "The student to enrol" }),
    course_id: z.int().positive(),
  })
  .meta({ id: "BindRequest" });

/** Read on both sides: its `Student` has a defaulted field, so both become Input and Output variants. */
export const Enrolment = z
  .object({ student: StudentSerializer, course: z.string() })
  .meta({ id: "Enrolment", description: "A student in a course" });

export const ErrorEnvelope = z
  .object({ code: z.int(), message: z.string(), data: z.object({ errors: z.array(z.unknown()) }) })
  .meta({ id: "ErrorEnvelope" });

const NotFoundBody = z.object({ detail: z.string() }).meta({ id: "NotFound" });

const student = { id: 1, name: "Ada", email: "ada@example.org", nickname: null };

/** Every query form: scalars with defaults and constraints, a list, and a model. */
export const listStudents = endpoint({
  summary: "List students",
  description: "Pages through the students, newest first.",
  tags: ["students"],
  params: {
    page: p.Query(z.int(), { default: 1, ge: 1, description: "Page number", examples: [2] }),
    size: p.Query(z.int(), { default: 10, ge: 1, le: 100, description: "Items per page" }),
    tag: p.Query(z.array(z.string()), { default: [] }),
    filter: p.Query(
      z.object({
        name: z.string().max(50).optional(),
        active: z.boolean().default(true),
      }),
    ),
    x_token: p.Header(z.string(), { description: "Access token" }),
    request_id: p.Header(z.string(), { alias: "X-Request-ID", default: "none" }),
    session: p.Cookie(z.string().optional(), { deprecated: true }),
  },
  returns: [
    p.ResponseSpec({
      model: StudentListResponse,
      description: "One page of students",
      headers: { "X-Total-Count": "How many students there are in all" },
    }),
  ],
  handler: (_request, { page, size, tag, filter, x_token, request_id, session }) =>
    new JsonResponse(
      { code: 0, message: "success", data: [student] },
      {
        headers: {
          "x-total-count": "1",
          "x-echo": JSON.stringify({ page, size, tag, filter, x_token, request_id, session }),
        },
      },
    ),
});

/** A path scalar, two status codes. */
export const getStudent = endpoint({
  summary: "Get one student",
  params: { student_id: p.Path(z.int(), { ge: 1, description: "The student's id", examples: [42] }) },
  returns: [
    p.ResponseSpec({ model: StudentResponse }),
    p.ResponseSpec({ model: NotFoundBody, code: "404", description: "No such student" }),
  ],
  handler: (_request, { student_id }) =>
    student_id === 1
      ? new JsonResponse({ code: 0, message: "success", data: student })
      : new JsonResponse({ detail: "No such student" }, { status: 404 }),
});

/** A path model: both placeholders from one model; shares StudentListResponse with listStudents. */
export const courseStudents = endpoint({
  params: { ids: p.Path(z.object({ course_id: z.int(), student_id: z.int() })) },
  returns: [p.ResponseSpec({ model: StudentListResponse })],
  handler: () => new JsonResponse({ code: 0, message: "success", data: [student] }),
});

/** A JSON model filling the whole body, with a 201 carrying headers and a 409. */
export const bindCourse = endpoint({
  summary: "Bind a student to a course",
  params: { body: p.Json(BindRequest) },
  returns: [
    p.ResponseSpec({
      model: BindRequest,
      code: "201",
      description: "Bound",
      headers: { Location: "Where the binding lives", "X-Request-Cost": "" },
    }),
    p.ResponseSpec({ model: NotFoundBody, code: "409", description: "Already bound" }),
  ],
  handler: (_request, { body }) =>
    new JsonResponse(body, { status: 201, headers: { location: `/bindings/${body.student_id}` } }),
});

/** A JSON model beside a JSON scalar: one flattened object. Deprecated. */
export const enrol = endpoint({
  deprecated: true,
  params: {
    request: p.Json(BindRequest),
    note: p.Json(z.string(), { default: "", maxLength: 200 }),
  },
  returns: JsonResponse,
  handler: (_request, { request, note }) => new JsonResponse({ ...request, note }),
});

/** A form model beside a form scalar. */
export const createStudent = endpoint({
  params: {
    student: p.Form(
      z.object({
        name: z.string().min(1),
        email: z.email().meta({ alias: "e-mail" }),
      }),
    ),
    age: p.Form(z.int(), { default: 18, ge: 16 }),
  },
  returns: [p.ResponseSpec({ model: StudentResponse, code: "201" })],
  handler: (_request, { student, age }) =>
    new JsonResponse(
      { code: 0, message: `created, ${age}`, data: { ...student, id: 2, nickname: null } },
      { status: 201 },
    ),
});

/** One file, a list of files, a form field and a path scalar in one multipart body. */
export const uploadDocuments = endpoint({
  params: {
    student_id: z.int(),
    avatar: p.File({ description: "A square picture" }),
    attachments: p.File({ list: true, optional: true }),
    title: p.Form(z.string(), { maxLength: 80 }),
  },
  returns: PlainTextResponse,
  handler: async (_request, { student_id, avatar, attachments, title }) =>
    new PlainTextResponse(`${student_id}:${title}:${avatar.filename}:${attachments.length}`),
});

/** A named model in, the same model out. */
export const replaceEnrolment = endpoint({
  params: { enrolment: p.Json(Enrolment) },
  returns: [p.ResponseSpec({ model: Enrolment })],
  handler: (_request, { enrolment }) => new JsonResponse(enrolment),
});

/** No parameters: no validation-error response. */
export const hello = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("Hello, World!"),
});

export const health = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ ok: true }) });

/** One endpoint answering two methods: one operation each. */
export const items = endpoint({
  params: { q: p.Query(z.string().optional()) },
  returns: JsonResponse,
  handler: (request, { q }) => new JsonResponse({ method: request.method, q }),
});

export const routes = [
  path("/hello", { endpoint: hello, name: "hello" }),
  path("/api", {
    tags: ["api"],
    routes: [
      path("/students", { endpoint: listStudents, name: "list_students" }),
      path("/students/{student_id}", { endpoint: getStudent, name: "get_student" }),
      path("/courses/{course_id}/students/{student_id}", {
        endpoint: courseStudents,
        name: "course_students",
      }),
      path("/bind", { endpoint: bindCourse, methods: ["POST"], name: "bind_course" }),
      path("/enrol", { endpoint: enrol, methods: ["POST"], name: "enrol" }),
      path("/students/form", { endpoint: createStudent, methods: ["POST"], name: "create_student" }),
      path("/students/{student_id}/documents", {
        endpoint: uploadDocuments,
        methods: ["POST"],
        name: "upload_documents",
      }),
      path("/enrolments", { endpoint: replaceEnrolment, methods: ["PUT"], name: "replace_enrolment" }),
      path("/items", { endpoint: items, methods: ["GET", "POST"], name: "items" }),
    ],
  }),
  path("/internal/health", { endpoint: health, includeInSchema: false }),
];

/** Every field of the Info Object, top-level tags (one also a route's) and externalDocs, for the validators. */
export const OPENAPI = {
  info: {
    title: "Fixture API",
    version: "1.2.3",
    summary: "Students, courses and enrolments",
    description: "Every marker of unruffled.",
    termsOfService: "https://example.org/terms",
    contact: { name: "API team", url: "https://example.org/contact", email: "api@example.org" },
    license: { name: "MIT License", identifier: "MIT" },
  },
  servers: [{ url: "http://127.0.0.1:8000", description: "Local" }],
  tags: [
    {
      name: "students",
      description: "Who is enrolled",
      externalDocs: { url: "https://example.org/students", description: "The student handbook" },
    },
    { name: "api", description: "Everything under `/api`" },
    { name: "archive", description: "A tag no route carries" },
  ],
  externalDocs: { url: "https://example.org/guide", description: "The guide" },
  allow_public: true,
};

/** The seed's envelope for validation errors: a 200 with `code: 422`, documented by the handler. */
export const envelopeValidationHandler = exceptionHandler(
  RequestValidationError,
  (error) => new JsonResponse({ code: 422, message: "invalid request", data: { errors: error.issues } }),
  { responses: [p.ResponseSpec({ code: "200", model: ErrorEnvelope, description: "Invalid request" })] },
);

/** The fixture app: documentation public, the default 422 unless handlers say otherwise. */
export function fixtureApp(options: Partial<AppOptions> = {}): App {
  return createApp({ settings: { OPENAPI }, routes, ...options });
}
