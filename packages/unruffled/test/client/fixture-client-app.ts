// An app with every place a value can go and every kind of answer, for the generated client's tests.
import { type App, type AppOptions, createApp } from "unruffled";
import { EventStreamResponse, HttpResponse, JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { z } from "zod";

export const Student = z
  .object({
    id: z.int(),
    name: z.string().min(1),
    nickname: z.string().nullable().default(null),
    joined: z.date(),
  })
  .meta({ id: "Student", description: "Someone enrolled" });

export const NotFound = z.object({ detail: z.string() }).meta({ id: "NotFound" });

const Echo = z.record(z.string(), z.unknown()).meta({ id: "Echo" });

const bearer = httpBearer({
  verify: (token) => (token === "reader" || token === "admin" ? { token } : null),
  scopesOf: (principal: { token: string }) => (principal.token === "admin" ? ["admin"] : []),
});

/** Path, query (scalar, list, model), header (aliased, list) and cookie, echoed back. */
export const search = endpoint({
  params: {
    school: p.Path(z.string()),
    page: p.Query(z.int(), { default: 1, ge: 1 }),
    tag: p.Query(z.array(z.string()), { default: [] }),
    filter: p.Query(z.object({ name: z.string().optional(), active: z.boolean().default(true) })),
    trace: p.Header(z.string().optional(), { alias: "X-Trace-Id" }),
    accept_kinds: p.Header(z.array(z.string()), { default: [] }),
    session: p.Cookie(z.string().optional()),
  },
  returns: [p.ResponseSpec({ model: Echo })],
  handler: (_request, values) => new JsonResponse(values),
});

/** A path integer, with a documented 404. */
export const getStudent = endpoint({
  params: { student_id: p.Path(z.int(), { ge: 1 }) },
  returns: [
    p.ResponseSpec({ model: Student }),
    p.ResponseSpec({ code: "404", model: NotFound, description: "No such student" }),
  ],
  handler: (_request, { student_id }) =>
    student_id === 1
      ? new JsonResponse({ id: 1, name: "Ada", nickname: null, joined: new Date("2024-09-01T08:00:00Z") })
      : new JsonResponse({ detail: `No student ${student_id}` }, { status: 404 }),
});

/** A JSON model that is the whole body, answered with 201. */
export const createStudent = endpoint({
  params: { student: p.Json(Student.omit({ id: true, joined: true })) },
  returns: [p.ResponseSpec({ code: "201", model: Student })],
  handler: (_request, { student }) =>
    new JsonResponse({ id: 2, ...student, joined: new Date("2025-01-01T00:00:00Z") }, { status: 201 }),
});

/** A JSON model beside a JSON scalar: one object on the wire. */
export const enrol = endpoint({
  params: {
    pair: p.Json(z.object({ student_id: z.int(), course_id: z.int() })),
    note: p.Json(z.string(), { default: "" }),
  },
  returns: [p.ResponseSpec({ model: Echo })],
  handler: (_request, values) => new JsonResponse(values),
});

/** An urlencoded form: a model with an aliased field, and a list. */
export const signUp = endpoint({
  params: {
    person: p.Form(z.object({ name: z.string(), email: z.string().meta({ alias: "e-mail" }) })),
    topics: p.Form(z.array(z.string()), { default: [] }),
  },
  returns: [p.ResponseSpec({ model: Echo })],
  handler: (_request, values) => new JsonResponse(values),
});

/** Multipart: one file, a list of files and a text field. */
export const upload = endpoint({
  params: {
    avatar: p.File(),
    attachments: p.File({ list: true, optional: true }),
    title: p.Form(z.string()),
  },
  returns: PlainTextResponse,
  handler: async (_request, { avatar, attachments, title }) => {
    const sizes = [avatar, ...attachments].map((file) => `${file.filename}=${file.size}`);
    return new PlainTextResponse(`${title}: ${sizes.join(", ")}`);
  },
});

/** A required list of files: at least one. */
export const uploadMany = endpoint({
  params: { files: p.File({ list: true }) },
  returns: PlainTextResponse,
  handler: (_request, { files }) => new PlainTextResponse(files.map((file) => file.filename).join(", ")),
});

export const Meeting = z
  .object({ title: z.string(), starts: z.date(), reminders: z.array(z.date()).default([]) })
  .meta({ id: "Meeting" });

/** Dates in a JSON body and in the query, answered back as dates, with the weekday the server saw. */
export const schedule = endpoint({
  params: { meeting: p.Json(Meeting), after: p.Query(z.date().optional()) },
  returns: [p.ResponseSpec({ model: Meeting.extend({ weekday: z.int(), after: z.date().nullable() }) })],
  handler: (_request, { meeting, after }) =>
    new JsonResponse({ ...meeting, weekday: meeting.starts.getUTCDay(), after: after ?? null }),
});

/** Events until the client leaves: a tick each 20 ms. */
export const ticks = endpoint({
  params: { from: p.Query(z.int(), { default: 0 }) },
  returns: [
    p.ResponseSpec({
      model: z.object({ n: z.int() }).meta({ id: "Tick" }),
      content_type: "text/event-stream",
    }),
  ],
  handler: (request, { from }) => {
    async function* events() {
      for (let n = from; !request.signal.aborted; n += 1) {
        yield { data: { n }, id: String(n) };
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    return new EventStreamResponse(events());
  },
});

/** Needs a bearer token, and the scope `admin`. */
export const adminOnly = endpoint({
  params: { user: p.Security(bearer, { scopes: ["admin"] }) },
  returns: [p.ResponseSpec({ model: z.object({ ok: z.boolean() }) })],
  handler: () => new JsonResponse({ ok: true }),
});

/** Answers 418, which it does not document, or a 200 whose JSON is not JSON. */
export const misbehave = endpoint({
  params: { how: p.Query(z.enum(["teapot", "broken-json", "html"])) },
  returns: [p.ResponseSpec({ model: z.object({ ok: z.boolean() }) })],
  handler: (_request, { how }) => {
    if (how === "teapot") return new JsonResponse({ short: "and stout" }, { status: 418 }) as never;
    if (how === "html") return new HttpResponse("<p>hi</p>", { status: 200 }, "text/html") as never;
    return new HttpResponse("{not json", { status: 200 }, "application/json") as never;
  },
});

export const routes = [
  path("/schools/{school}/search", { endpoint: search, name: "search" }),
  path("/students/{student_id}", { endpoint: getStudent, name: "get_student" }),
  path("/students", { endpoint: createStudent, methods: ["POST"], name: "create_student" }),
  path("/enrol", { endpoint: enrol, methods: ["POST"], name: "enrol" }),
  path("/sign-up", { endpoint: signUp, methods: ["POST"], name: "sign_up" }),
  path("/upload", { endpoint: upload, methods: ["POST"], name: "upload" }),
  path("/upload-many", { endpoint: uploadMany, methods: ["POST"], name: "upload_many" }),
  path("/schedule", { endpoint: schedule, methods: ["POST"], name: "schedule" }),
  path("/ticks", { endpoint: ticks, name: "ticks" }),
  path("/admin", { endpoint: adminOnly, name: "admin_only" }),
  path("/misbehave", { endpoint: misbehave }),
];

export function clientFixtureApp(options: Partial<AppOptions> = {}): App {
  return createApp({ routes, ...options });
}

export default clientFixtureApp;
