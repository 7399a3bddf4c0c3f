import { createApp, exceptionHandler, RequestValidationError, ValueError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { generateOpenApi } from "unruffled/openapi";
import { endpoint, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { envelopeValidationHandler, fixtureApp } from "./fixture-app.ts";

// z.int() is a safe integer, and the document says so.
const SAFE_INT = { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonBody = (schema: object) => ({ "application/json": { schema } });
// What an operation that reads a body adds: the default handler's answers to a refused body.
const bodyRefusals = {
  "413": { description: "Content Too Large", content: jsonBody(ref("HTTPError")) },
  "415": { description: "Unsupported Media Type", content: jsonBody(ref("HTTPError")) },
};
const validationError = {
  description: "Validation Error",
  content: jsonBody(ref("HTTPValidationError")),
};

const document = fixtureApp().openapi();
const operation = (route: string, method: string) => (document.paths as any)[route][method];

describe("the document (spec section 5)", () => {
  it("is OpenAPI 3.1 with every field of the Info Object and the servers from the OPENAPI settings", () => {
    expect(document.openapi).toBe("3.1.1");
    expect(document.info).toEqual({
      title: "Fixture API",
      version: "1.2.3",
      summary: "Students, courses and enrolments",
      description: "Every marker of unruffled.",
      termsOfService: "https://example.org/terms",
      contact: { name: "API team", url: "https://example.org/contact", email: "api@example.org" },
      license: { name: "MIT License", identifier: "MIT" },
    });
    expect(document.servers).toEqual([{ url: "http://127.0.0.1:8000", description: "Local" }]);
  });

  it("carries the settings' top-level tags, in their order, and externalDocs, after the paths and components", () => {
    expect(Object.keys(document)).toEqual([
      "openapi",
      "info",
      "servers",
      "paths",
      "components",
      "tags",
      "externalDocs",
    ]);
    // "students" and "api" are routes' tags too; "archive" is no route's.
    expect(document.tags).toEqual([
      {
        name: "students",
        description: "Who is enrolled",
        externalDocs: { url: "https://example.org/students", description: "The student handbook" },
      },
      { name: "api", description: "Everything under `/api`" },
      { name: "archive", description: "A tag no route carries" },
    ]);
    expect(document.externalDocs).toEqual({ url: "https://example.org/guide", description: "The guide" });
  });

  it("has one operation per route and method with the route name as a stable operationId; HEAD, includeInSchema:false and the doc pages are left out", () => {
    const operations = Object.entries(document.paths).flatMap(([route, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${route} ${op!.operationId}`),
    );
    expect(operations).toEqual([
      "GET /hello hello",
      "GET /api/students list_students",
      "GET /api/students/{student_id} get_student",
      "GET /api/courses/{course_id}/students/{student_id} course_students",
      "POST /api/bind bind_course",
      "POST /api/enrol enrol",
      "POST /api/students/form create_student",
      "POST /api/students/{student_id}/documents upload_documents",
      "PUT /api/enrolments replace_enrolment",
      "GET /api/items items_get",
      "POST /api/items items_post",
    ]);
  });

  it("gives tags, summary, description and deprecated from the route and the endpoint", () => {
    const { parameters, responses, ...listStudents } = operation("/api/students", "get");
    expect(listStudents).toEqual({
      operationId: "list_students",
      tags: ["api", "students"],
      summary: "List students",
      description: "Pages through the students, newest first.",
    });
    expect(operation("/api/enrol", "post").deprecated).toBe(true);
    expect("deprecated" in operation("/api/bind", "post")).toBe(false);
  });

  it("documents query scalars, lists and models, headers and cookies with their wire names, defaults and constraints", () => {
    expect(operation("/api/students", "get").parameters).toEqual([
      {
        name: "page",
        in: "query",
        required: false,
        schema: {
          default: 1,
          description: "Page number",
          examples: [2],
          type: "integer",
          minimum: 1,
          maximum: 9007199254740991,
        },
        description: "Page number",
        examples: { example1: { value: 2 } },
      },
      {
        name: "size",
        in: "query",
        required: false,
        schema: { default: 10, description: "Items per page", type: "integer", minimum: 1, maximum: 100 },
        description: "Items per page",
      },
      {
        name: "tag",
        in: "query",
        required: false,
        schema: { default: [], type: "array", items: { type: "string" } },
      },
      { name: "name", in: "query", required: false, schema: { type: "string", maxLength: 50 } },
      { name: "active", in: "query", required: false, schema: { default: true, type: "boolean" } },
      {
        name: "x-token",
        in: "header",
        required: true,
        schema: { type: "string", description: "Access token" },
        description: "Access token",
      },
      {
        name: "X-Request-ID",
        in: "header",
        required: false,
        schema: { default: "none", type: "string" },
      },
      {
        name: "session",
        in: "cookie",
        required: false,
        schema: { deprecated: true, type: "string" },
        deprecated: true,
      },
    ]);
  });

  it("documents a path scalar and every field of a path model as required path parameters", () => {
    expect(operation("/api/students/{student_id}", "get").parameters).toEqual([
      {
        name: "student_id",
        in: "path",
        required: true,
        schema: {
          type: "integer",
          minimum: 1,
          maximum: 9007199254740991,
          description: "The student's id",
          examples: [42],
        },
        description: "The student's id",
        examples: { example1: { value: 42 } },
      },
    ]);
    expect(operation("/api/courses/{course_id}/students/{student_id}", "get").parameters).toEqual([
      { name: "course_id", in: "path", required: true, schema: SAFE_INT },
      { name: "student_id", in: "path", required: true, schema: SAFE_INT },
    ]);
  });

  it("documents a JSON model that fills the body as a reference to its component", () => {
    expect(operation("/api/bind", "post").requestBody).toEqual({
      required: true,
      content: jsonBody(ref("BindRequest")),
    });
  });

  it("flattens a JSON model beside a JSON scalar into one object, as the request path reads them", () => {
    expect(operation("/api/enrol", "post").requestBody).toEqual({
      required: true,
      content: jsonBody({
        type: "object",
        properties: {
          student_id: {
            type: "integer",
            exclusiveMinimum: 0,
            maximum: 9007199254740991,
            description: "The student to enrol",
          },
          course_id: { type: "integer", exclusiveMinimum: 0, maximum: 9007199254740991 },
          note: { default: "", type: "string", maxLength: 200 },
        },
        required: ["student_id", "course_id"],
      }),
    });
  });

  it("documents a form model beside a form scalar as urlencoded, with the fields' aliases", () => {
    expect(operation("/api/students/form", "post").requestBody).toEqual({
      required: true,
      content: {
        "application/x-www-form-urlencoded": {
          schema: {
            type: "object",
            properties: {
              name: { type: "string", minLength: 1 },
              "e-mail": { type: "string", format: "email" },
              age: { default: 18, type: "integer", minimum: 16, maximum: 9007199254740991 },
            },
            required: ["name", "e-mail"],
          },
        },
      },
    });
  });

  it("documents files with form fields as multipart, files as binary strings and lists of them", () => {
    const upload = operation("/api/students/{student_id}/documents", "post");
    expect(upload.parameters).toEqual([{ name: "student_id", in: "path", required: true, schema: SAFE_INT }]);
    expect(upload.requestBody).toEqual({
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              avatar: { type: "string", format: "binary", description: "A square picture" },
              attachments: { default: [], type: "array", items: { type: "string", format: "binary" } },
              title: { type: "string", maxLength: 80 },
            },
            required: ["avatar", "title"],
          },
        },
      },
    });
  });

  // FastAPI's body_multiple_params tutorial001 (item: Item | None = None) and optional files.
  it("does not require a body whose parameters may all be left out", () => {
    const Item = z.object({ name: z.string(), price: z.number() });
    const answer = () => new JsonResponse({});
    const app = createApp({
      routes: [
        path("/items/{item_id}", {
          endpoint: endpoint({
            params: { item_id: p.Path(z.int()), item: p.Json(Item.optional()) },
            returns: JsonResponse,
            handler: answer,
          }),
          methods: ["PUT"],
        }),
        path("/files", {
          endpoint: endpoint({
            params: { files: p.File({ list: true, optional: true }) },
            returns: JsonResponse,
            handler: answer,
          }),
          methods: ["POST"],
        }),
      ],
    });
    const doc = app.openapi() as any;
    expect(doc.paths["/items/{item_id}"].put.requestBody).toEqual({
      required: false,
      content: jsonBody({
        type: "object",
        properties: { name: { type: "string" }, price: { type: "number" } },
        required: ["name", "price"],
      }),
    });
    expect(doc.paths["/files"].post.requestBody).toEqual({
      required: false,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              files: { default: [], type: "array", items: { type: "string", format: "binary" } },
            },
          },
        },
      },
    });
  });

  // FastAPI's body_multiple_params tutorial005 (item: Item = Body(embed=True)): Body_update_item's schema.
  it("documents an embedded model as the one required property of the body, named after the parameter", () => {
    const Item = z.object({ name: z.string(), price: z.number() }).meta({ id: "Item" });
    const app = createApp({
      routes: [
        path("/items/{item_id}", {
          endpoint: endpoint({
            params: { item_id: p.Path(z.int()), item: p.Json(Item, { embed: true }) },
            returns: JsonResponse,
            handler: () => new JsonResponse({}),
          }),
          methods: ["PUT"],
        }),
        path("/maybe", {
          endpoint: endpoint({
            params: { item: p.Json(Item.optional(), { embed: true, alias: "the-item" }) },
            returns: JsonResponse,
            handler: () => new JsonResponse({}),
          }),
          methods: ["PUT"],
        }),
      ],
    });
    const doc = app.openapi() as any;
    expect(doc.paths["/items/{item_id}"].put.requestBody).toEqual({
      required: true,
      content: jsonBody({ type: "object", properties: { item: ref("Item") }, required: ["item"] }),
    });
    expect(doc.paths["/maybe"].put.requestBody).toEqual({
      required: false,
      content: jsonBody({ type: "object", properties: { "the-item": ref("Item") } }),
    });
  });

  it("has no request body where the endpoint reads none", () => {
    expect("requestBody" in operation("/api/students", "get")).toBe(false);
    expect("requestBody" in operation("/hello", "get")).toBe(false);
  });

  it("documents one response per ResponseSpec with its code, description (or reason phrase) and headers, plus the validation error", () => {
    expect(operation("/api/bind", "post").responses).toEqual({
      "201": {
        description: "Bound",
        headers: {
          Location: { description: "Where the binding lives", schema: { type: "string" } },
          "X-Request-Cost": { schema: { type: "string" } },
        },
        content: jsonBody(ref("BindRequest")),
      },
      "409": { description: "Already bound", content: jsonBody(ref("NotFound")) },
      ...bodyRefusals,
      "422": validationError,
    });
    expect(operation("/api/students/{student_id}", "get").responses).toEqual({
      "200": { description: "Successful Response", content: jsonBody(ref("StudentResponse")) },
      "404": { description: "No such student", content: jsonBody(ref("NotFound")) },
      "422": validationError,
    });
    expect(operation("/api/students/form", "post").responses["201"]).toEqual({
      description: "Created",
      content: jsonBody(ref("StudentResponse")),
    });
  });

  it("documents a response class alone as a 200 of its media type, and no validation error without parameters", () => {
    expect(operation("/hello", "get").responses).toEqual({
      "200": {
        description: "Successful Response",
        content: { "text/plain": { schema: { type: "string" } } },
      },
    });
    expect(operation("/api/enrol", "post").responses).toEqual({
      "200": { description: "Successful Response", content: jsonBody({}) },
      ...bodyRefusals,
      "422": validationError,
    });
  });

  it("makes every named model one component, shared by every operation that uses it", () => {
    expect(operation("/api/students", "get").responses["200"]).toEqual({
      description: "One page of students",
      headers: {
        "X-Total-Count": { description: "How many students there are in all", schema: { type: "string" } },
      },
      content: jsonBody(ref("StudentListResponse")),
    });
    expect(operation("/api/courses/{course_id}/students/{student_id}", "get").responses["200"]).toEqual({
      description: "Successful Response",
      content: jsonBody(ref("StudentListResponse")),
    });
    const student = (required: string[]) => ({
      type: "object",
      properties: {
        id: SAFE_INT,
        name: { type: "string", minLength: 1 },
        email: { type: "string", format: "email" },
        nickname: { default: null, type: ["string", "null"] },
      },
      required,
    });
    const envelope = (data: object) => ({
      type: "object",
      properties: { code: SAFE_INT, message: { type: "string" }, data },
      required: ["code", "message", "data"],
    });
    const enrolment = (studentRef: string) => ({
      type: "object",
      properties: { student: ref(studentRef), course: { type: "string" } },
      required: ["student", "course"],
      description: "A student in a course",
    });
    expect(document.components).toEqual({
      schemas: {
        BindRequest: {
          type: "object",
          properties: {
            student_id: {
              type: "integer",
              exclusiveMinimum: 0,
              maximum: 9007199254740991,
              description: "The student to enrol",
            },
            course_id: { type: "integer", exclusiveMinimum: 0, maximum: 9007199254740991 },
          },
          required: ["student_id", "course_id"],
        },
        "Enrolment-Input": enrolment("Student-Input"),
        "Enrolment-Output": enrolment("Student-Output"),
        HTTPError: { type: "object", properties: { detail: { type: "string" } }, required: ["detail"] },
        HTTPValidationError: {
          type: "object",
          properties: { detail: { type: "array", items: ref("ValidationIssue") } },
          required: ["detail"],
        },
        NotFound: {
          type: "object",
          properties: { detail: { type: "string" } },
          required: ["detail"],
        },
        // A defaulted field is optional coming in and always present going out.
        "Student-Input": student(["id", "name", "email"]),
        "Student-Output": student(["id", "name", "email", "nickname"]),
        StudentListResponse: envelope({ type: "array", items: ref("Student-Output") }),
        StudentResponse: envelope(ref("Student-Output")),
        ValidationIssue: {
          type: "object",
          properties: {
            loc: { type: "array", items: { anyOf: [{ type: "string" }, SAFE_INT] } },
            msg: { type: "string" },
            type: { type: "string" },
            input: {},
          },
          required: ["loc", "msg", "type", "input"],
        },
      },
    });
  });

  it("splits a model that holds a differing model into Input and Output variants too", () => {
    expect(operation("/api/enrolments", "put").requestBody).toEqual({
      required: true,
      content: jsonBody(ref("Enrolment-Input")),
    });
    expect(operation("/api/enrolments", "put").responses["200"]).toEqual({
      description: "Successful Response",
      content: jsonBody(ref("Enrolment-Output")),
    });
  });

  it("is generated once per app: later calls return the same frozen object", () => {
    const app = fixtureApp();
    const first = app.openapi();
    expect(generateOpenApi(app)).toBe(first);
    expect(Object.isFrozen(first.paths)).toBe(true);
    expect(app.openapi()).not.toBe(document);
  });
});

describe("the validation-error response follows the app's own handler", () => {
  const envelopeDocument = fixtureApp({ exceptionHandlers: [envelopeValidationHandler] }).openapi();
  const envelopeOperation = (route: string, method: string) => (envelopeDocument.paths as any)[route][method];

  it("documents both bodies under anyOf when the handler answers a status the endpoint documents too", () => {
    expect(envelopeOperation("/api/students", "get").responses).toEqual({
      "200": {
        description: "One page of students",
        headers: {
          "X-Total-Count": { description: "How many students there are in all", schema: { type: "string" } },
        },
        content: jsonBody({ anyOf: [ref("StudentListResponse"), ref("ErrorEnvelope")] }),
      },
    });
  });

  it("adds the handler's status beside the endpoint's own ones", () => {
    expect(envelopeOperation("/api/bind", "post").responses).toEqual({
      "200": { description: "Invalid request", content: jsonBody(ref("ErrorEnvelope")) },
      "201": {
        description: "Bound",
        headers: {
          Location: { description: "Where the binding lives", schema: { type: "string" } },
          "X-Request-Cost": { schema: { type: "string" } },
        },
        content: jsonBody(ref("BindRequest")),
      },
      "409": { description: "Already bound", content: jsonBody(ref("NotFound")) },
      ...bodyRefusals,
    });
  });

  it("names the handler's model as a component and drops the unused default one", () => {
    const schemas = envelopeDocument.components!.schemas!;
    expect(schemas.ErrorEnvelope).toEqual({
      type: "object",
      properties: {
        code: SAFE_INT,
        message: { type: "string" },
        data: {
          type: "object",
          properties: { errors: { type: "array", items: {} } },
          required: ["errors"],
        },
      },
      required: ["code", "message", "data"],
    });
    expect("HTTPValidationError" in schemas).toBe(false);
  });

  it("documents nothing for validation errors when the handler documents nothing", () => {
    const silent = exceptionHandler(RequestValidationError, () => new JsonResponse({}, { status: 400 }));
    const doc = fixtureApp({ exceptionHandlers: [silent] }).openapi();
    expect((doc.paths as any)["/api/bind"].post.responses).toEqual({
      "201": expect.any(Object),
      "409": expect.any(Object),
      ...bodyRefusals,
    });
  });
});

describe("edge cases of the document", () => {
  const ok = (returns: any, params: any = {}) =>
    endpoint({ params, returns, handler: () => new JsonResponse({}) });

  it("leaves a whole group with includeInSchema: false out of the document, and still serves it", async () => {
    const app = createApp({
      routes: [
        path("/public", { endpoint: ok(JsonResponse), name: "public" }),
        path("/internal", {
          includeInSchema: false,
          routes: [
            path("/health", { endpoint: ok(JsonResponse) }),
            path("/metrics", { endpoint: ok(JsonResponse) }),
          ],
        }),
      ],
    });
    expect(Object.keys(app.openapi().paths ?? {})).toEqual(["/public"]);
    const response = await testClient(app).get("/internal/metrics");
    expect([response.status, response.json()]).toEqual([200, {}]);
  });

  it("uses a default info without OPENAPI settings", () => {
    const app = createApp({ routes: [path("/ping", { endpoint: ok(JsonResponse) })] });
    expect(app.openapi()).toEqual({
      openapi: "3.1.1",
      info: { title: "API", version: "0.1.0" },
      paths: {
        "/ping": {
          get: {
            operationId: "get_ping",
            responses: { "200": { description: "Successful Response", content: jsonBody({}) } },
          },
        },
      },
    });
  });

  it("writes a licence given by its url, and only the fields OpenAPI defines of what the settings give", () => {
    const info = {
      title: "Shop",
      version: "1.0.0",
      license: { name: "Apache 2.0", url: "https://www.apache.org/licenses/LICENSE-2.0.html" },
      contact: { email: "shop@example.org", phone: "555-0100" },
      owner: "the shop team",
    };
    const app = createApp({
      settings: { OPENAPI: { info, tags: [{ name: "items", colour: "blue" } as { name: string }] } },
      routes: [path("/ping", { endpoint: ok(JsonResponse) })],
    });
    expect([app.openapi().info, app.openapi().tags]).toEqual([
      {
        title: "Shop",
        version: "1.0.0",
        contact: { email: "shop@example.org" },
        license: { name: "Apache 2.0", url: "https://www.apache.org/licenses/LICENSE-2.0.html" },
      },
      [{ name: "items" }],
    ]);
  });

  it("refuses a tag declared twice in OPENAPI.tags when the app is built, naming it", () => {
    const build = () =>
      createApp({
        settings: {
          OPENAPI: {
            info: { title: "Shop", version: "1.0.0" },
            tags: [{ name: "items" }, { name: "orders" }, { name: "items", description: "Again" }],
          },
        },
        routes: [path("/ping", { endpoint: ok(JsonResponse) })],
      });
    expect(build).toThrow(ValueError);
    expect(build).toThrow('OPENAPI.tags declares the tag "items" twice; declare each tag once.');
  });

  it("refuses a licence with both an identifier and a url when the app is built", () => {
    const license = { name: "MIT License", identifier: "MIT", url: "https://opensource.org/license/mit" };
    const build = () =>
      createApp({
        settings: { OPENAPI: { info: { title: "Shop", version: "1.0.0", license: license as never } } },
        routes: [path("/ping", { endpoint: ok(JsonResponse) })],
      });
    expect(build).toThrow(ValueError);
    expect(build).toThrow(
      'OPENAPI.info.license gives both identifier "MIT" and url "https://opensource.org/license/mit"; OpenAPI 3.1 allows one of them.',
    );
  });

  it("refuses two different schemas that share one id, naming the id", () => {
    const first = z.object({ a: z.string() }).meta({ id: "Twin" });
    const second = z.object({ b: z.string() }).meta({ id: "Twin" });
    const app = createApp({
      routes: [
        path("/one", { endpoint: ok([p.ResponseSpec({ model: first })]) }),
        path("/two", { endpoint: ok([p.ResponseSpec({ model: second })]) }),
      ],
    });
    expect(() => app.openapi()).toThrow(ValueError);
    expect(() => generateOpenApi(app)).toThrow(
      'Two different schemas are named "Twin" (.meta({ id: "Twin" })), so the OpenAPI document cannot tell them apart; give each schema its own id, or reuse one schema object.',
    );
  });

  it("drops the regex Zod writes for a format the format says, and keeps a pattern the user gave", () => {
    const Contact = z.object({
      at: z.iso.datetime(),
      day: z.iso.date(),
      email: z.email(),
      id: z.uuid(),
      host: z.ipv4(),
      since: z.iso.datetime({ offset: true }).optional(),
      backup: z.string().email().nullable(),
      html5: z.email({ pattern: z.regexes.html5Email }),
      code: z.string().regex(/^[A-Z]{3}$/),
      token: z.nanoid(),
    });
    const app = createApp({
      routes: [
        path("/contacts", {
          endpoint: ok([p.ResponseSpec({ model: Contact })], { body: p.Json(Contact) }),
          methods: ["POST"],
        }),
      ],
    });
    const doc = app.openapi() as any;
    const expected = {
      type: "object",
      properties: {
        at: { type: "string", format: "date-time" },
        day: { type: "string", format: "date" },
        email: { type: "string", format: "email" },
        id: { type: "string", format: "uuid" },
        host: { type: "string", format: "ipv4" },
        since: { type: "string", format: "date-time" },
        backup: { anyOf: [{ type: "string", format: "email" }, { type: "null" }] },
        html5: { type: "string", format: "email", pattern: z.regexes.html5Email.source },
        code: { type: "string", pattern: "^[A-Z]{3}$" },
        // Zod's own format name says nothing to a reader: its pattern is what says it.
        token: { type: "string", format: "nanoid", pattern: "^[a-zA-Z0-9_-]{21}$" },
      },
    };
    expect(doc.paths["/contacts"].post.requestBody.content["application/json"].schema).toEqual({
      ...expected,
      required: ["at", "day", "email", "id", "host", "backup", "html5", "code", "token"],
    });
    expect(doc.paths["/contacts"].post.responses["200"].content["application/json"].schema).toEqual({
      ...expected,
      required: ["at", "day", "email", "id", "host", "backup", "html5", "code", "token"],
    });
  });

  it("documents z.ipv6(), z.hostname() and z.iso.duration() by their format alone, as the other formats", () => {
    const Host = z.object({ v6: z.ipv6(), host: z.hostname(), every: z.iso.duration() });
    const app = createApp({ routes: [path("/hosts", { endpoint: ok([p.ResponseSpec({ model: Host })]) })] });
    expect(
      (app.openapi() as any).paths["/hosts"].get.responses["200"].content["application/json"].schema,
    ).toEqual({
      type: "object",
      properties: {
        v6: { type: "string", format: "ipv6" },
        host: { type: "string", format: "hostname" },
        every: { type: "string", format: "duration" },
      },
      required: ["v6", "host", "every"],
    });
    // A pattern of one's own beside the name is still a pattern a reader must see.
    const own = z.object({ host: z.stringFormat("hostname", /^[a-z]+\.edu$/) });
    const ownApp = createApp({ routes: [path("/own", { endpoint: ok([p.ResponseSpec({ model: own })]) })] });
    expect(
      (ownApp.openapi() as any).paths["/own"].get.responses["200"].content["application/json"].schema,
    ).toEqual({
      type: "object",
      properties: { host: { type: "string", format: "hostname", pattern: "^[a-z]+\\.edu$" } },
      required: ["host"],
    });
  });

  // JSON Schema's `time` is RFC 3339's full-time, which has an offset (`09:30:00Z`): z.iso.time()
  // refuses every such value, so Zod writes no format. The OpenAPI format registry's `time-local` is
  // RFC 3339's time without one; the pattern stays, since z.iso.time() also takes `09:30`.
  it("documents z.iso.time() as format time-local beside its pattern, the values the server takes", async () => {
    const Alarm = z.object({
      at: z.iso.time(),
      second: z.iso.time({ precision: 0 }),
      minute: z.iso.time({ precision: -1 }),
    });
    const app = createApp({
      routes: [
        path("/alarms", {
          endpoint: endpoint({
            params: { alarm: p.Json(Alarm) },
            returns: [p.ResponseSpec({ model: Alarm })],
            handler: (_request, { alarm }) => new JsonResponse(alarm),
          }),
          methods: ["POST"],
        }),
      ],
    });
    const schema = (app.openapi() as any).paths["/alarms"].post.requestBody.content["application/json"]
      .schema;
    expect(schema.properties).toEqual({
      at: { type: "string", format: "time-local", pattern: z.iso.time()._zod.def.pattern!.source },
      second: { type: "string", format: "time-local", pattern: "^(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$" },
      // Hours and minutes only: no RFC 3339 time, so the pattern alone says it.
      minute: { type: "string", pattern: "^(?:[01]\\d|2[0-3]):[0-5]\\d$" },
    });
    const client = testClient(app);
    const accepted = await client.post("/alarms", {
      json: { at: "09:30", second: "09:30:15", minute: "09:30" },
    });
    expect(accepted.status).toBe(200);
    const withOffset = await client.post("/alarms", {
      json: { at: "09:30:00Z", second: "09:30:15", minute: "09:30" },
    });
    expect([withOffset.status, withOffset.json<any>().detail[0].loc]).toEqual([422, ["body", "at"]]);
  });

  // Zod's z.int() is a safe integer: past ±(2^53 − 1) a number has lost digits, and the server refuses
  // it. The document says the same bounds, so that a client or proxy that checks them agrees.
  it("documents z.int()'s safe-integer bounds, the numbers past which the server refuses a value", async () => {
    const Counter = z.object({ n: z.int(), top: z.int().max(2 ** 60), low: z.int().gt(0) });
    const app = createApp({
      routes: [
        path("/counters", {
          endpoint: endpoint({
            params: { q: p.Query(z.int()), counter: p.Json(Counter) },
            returns: [p.ResponseSpec({ model: Counter })],
            handler: (_request, { counter }) => new JsonResponse(counter),
          }),
          methods: ["POST"],
        }),
      ],
    });
    const operation = (app.openapi() as any).paths["/counters"].post;
    expect(operation.parameters[0].schema).toEqual(SAFE_INT);
    expect(operation.requestBody.content["application/json"].schema.properties).toEqual({
      n: SAFE_INT,
      // z.int().max(2 ** 60) is still a safe integer: the smaller bound is the one enforced.
      top: SAFE_INT,
      low: { type: "integer", exclusiveMinimum: 0, maximum: 9007199254740991 },
    });
    const client = testClient(app);
    const body = { n: 1, top: 1, low: 1 };
    const send = (q: string, counter: object) => client.post(`/counters?q=${q}`, { json: counter });
    expect((await send("9007199254740991", { ...body, n: -9007199254740991 })).status).toBe(200);
    const past = [
      [
        await send("9007199254740992", body),
        ["query", "q"],
        "Too big: expected int to be <=9007199254740991",
      ],
      [
        await send("-9007199254740992", body),
        ["query", "q"],
        "Too small: expected int to be >=-9007199254740991",
      ],
      [
        await send("1", { ...body, n: 2 ** 53 }),
        ["body", "n"],
        "Too big: expected int to be <=9007199254740991",
      ],
      [
        await send("1", { ...body, top: 2 ** 55 }),
        ["body", "top"],
        "Too big: expected int to be <=9007199254740991",
      ],
    ] as const;
    for (const [response, loc, msg] of past) {
      expect([response.status, response.json<any>().detail[0]]).toMatchObject([422, { loc, msg }]);
    }
  });

  it("refuses two different schemas that share one id when the app is built with the pages on", () => {
    const first = z.object({ a: z.string() }).meta({ id: "Twin" });
    const second = z.object({ b: z.string() }).meta({ id: "Twin" });
    expect(() =>
      createApp({
        settings: { OPENAPI: { info: { title: "Twins", version: "1" }, allow_public: true } },
        routes: [
          path("/one", { endpoint: ok([p.ResponseSpec({ model: first })]) }),
          path("/two", { endpoint: ok([p.ResponseSpec({ model: second })]) }),
        ],
      }),
    ).toThrow('Two different schemas are named "Twin" (.meta({ id: "Twin" }))');
  });

  it("documents a record over listed names as those names' properties, and no other name", () => {
    const Grants = z.object({
      all: z.record(z.enum(["read", "write"]), z.boolean()),
      some: z.partialRecord(z.enum(["read", "x-write"]), z.int()),
      one: z.record(z.literal("only"), z.string()),
      open: z.record(z.string().regex(/^x-/), z.int()),
    });
    const app = createApp({
      routes: [path("/grants", { endpoint: ok(JsonResponse, { body: p.Json(Grants) }), methods: ["POST"] })],
    });
    const doc = app.openapi() as any;
    expect(doc.paths["/grants"].post.requestBody.content["application/json"].schema.properties).toEqual({
      all: {
        type: "object",
        properties: { read: { type: "boolean" }, write: { type: "boolean" } },
        required: ["read", "write"],
        additionalProperties: false,
      },
      some: {
        type: "object",
        properties: { read: SAFE_INT, "x-write": SAFE_INT },
        additionalProperties: false,
      },
      one: {
        type: "object",
        properties: { only: { type: "string" } },
        required: ["only"],
        additionalProperties: false,
      },
      // Any name that matches: the names are not listed.
      open: {
        type: "object",
        propertyNames: { type: "string", pattern: "^x-" },
        additionalProperties: SAFE_INT,
      },
    });
  });

  it("documents a .readonly() field of a request as one to send, and keeps a readOnly the user gave", () => {
    // readOnly tells a client not to send the value: Swagger UI leaves it out of Try it out's body,
    // which then gets a 422 for the required field.
    const Order = z.object({
      lines: z.array(z.object({ sku: z.string() }).readonly()).readonly(),
      stamp: z.object({ at: z.string() }).readonly(),
      id: z.int().meta({ readOnly: true }).optional(),
    });
    const app = createApp({
      routes: [
        path("/orders", {
          endpoint: ok([p.ResponseSpec({ model: Order })], { body: p.Json(Order) }),
          methods: ["POST"],
        }),
      ],
    });
    const doc = app.openapi() as any;
    const line = { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] };
    const stamp = { type: "object", properties: { at: { type: "string" } }, required: ["at"] };
    expect(doc.paths["/orders"].post.requestBody.content["application/json"].schema).toEqual({
      type: "object",
      properties: {
        lines: { type: "array", items: line },
        stamp,
        id: { ...SAFE_INT, readOnly: true },
      },
      required: ["lines", "stamp"],
    });
    // An answer's fields are the server's to set: there readOnly says nothing wrong, and stays.
    expect(doc.paths["/orders"].post.responses["200"].content["application/json"].schema).toEqual({
      type: "object",
      properties: {
        lines: { type: "array", items: { ...line, readOnly: true }, readOnly: true },
        stamp: { ...stamp, readOnly: true },
        id: { ...SAFE_INT, readOnly: true },
      },
      required: ["lines", "stamp"],
    });
  });

  it("names an unnamed recursive model, documents dates as date-time strings and strips the alias meta key", () => {
    interface Category {
      name: string;
      children: Category[];
    }
    const Category: z.ZodType<Category> = z.object({
      name: z.string().meta({ alias: "label" }),
      get children() {
        return z.array(Category);
      },
    });
    const Stamp = z.object({ at: z.date() });
    const app = createApp({
      routes: [
        path("/tree", { endpoint: ok([p.ResponseSpec({ model: Category })]) }),
        path("/stamp", { endpoint: ok([p.ResponseSpec({ model: Stamp })]) }),
      ],
    });
    const doc = app.openapi() as any;
    expect(doc.paths["/tree"].get.responses["200"].content).toEqual(jsonBody(ref("RecursiveSchema1")));
    expect(doc.components.schemas).toEqual({
      RecursiveSchema1: {
        type: "object",
        properties: {
          name: { type: "string" },
          children: { type: "array", items: ref("RecursiveSchema1") },
        },
        required: ["name", "children"],
      },
    });
    expect(doc.paths["/stamp"].get.responses["200"].content).toEqual(
      jsonBody({
        type: "object",
        properties: { at: { type: "string", format: "date-time" } },
        required: ["at"],
      }),
    );
  });

  it("writes an unnamed recursive model used by several endpoints, nested, and on both sides as one component", () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const Tree: z.ZodType<Node> = z.object({
      name: z.string(),
      get children() {
        return z.array(Tree);
      },
    });
    const Pair = z.object({ left: Tree, right: Tree });
    const echo = (model: z.ZodType) => ok([p.ResponseSpec({ model })], { body: p.Json(model) });
    const app = createApp({
      routes: [
        path("/a", { endpoint: echo(Tree), methods: ["POST"] }),
        path("/b", { endpoint: echo(Tree), methods: ["POST"] }),
        path("/pair", { endpoint: echo(Pair), methods: ["POST"] }),
      ],
    });
    const doc = app.openapi() as any;
    const body = (route: string) => doc.paths[route].post.requestBody.content["application/json"].schema;
    const answer = (route: string) =>
      doc.paths[route].post.responses["200"].content["application/json"].schema;
    expect(Object.keys(doc.components.schemas).filter((name) => name.startsWith("Recursive"))).toEqual([
      "RecursiveSchema1",
    ]);
    expect([body("/a"), answer("/a"), body("/b"), answer("/b")]).toEqual(
      Array(4).fill(ref("RecursiveSchema1")),
    );
    const pair = {
      type: "object",
      properties: { left: ref("RecursiveSchema1"), right: ref("RecursiveSchema1") },
      required: ["left", "right"],
    };
    expect([body("/pair"), answer("/pair")]).toEqual([pair, pair]);
  });

  it("refers by their document names to unnamed recursive models of which one holds the other", () => {
    interface Link {
      next?: Link;
    }
    interface Chain {
      first: Link;
      chains: Chain[];
    }
    const Link: z.ZodType<Link> = z.object({
      get next() {
        return Link.optional();
      },
    });
    const Chain: z.ZodType<Chain> = z.object({
      first: Link,
      get chains() {
        return z.array(Chain);
      },
    });
    const app = createApp({
      routes: [
        path("/a", {
          endpoint: ok([p.ResponseSpec({ model: Chain })], { body: p.Json(Chain) }),
          methods: ["POST"],
        }),
        path("/b", { endpoint: ok([p.ResponseSpec({ model: Link })]) }),
      ],
    });
    const doc = app.openapi() as any;
    const components = doc.components.schemas as Record<string, unknown>;
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[^"]+/g)!;
    expect(refs.filter((target) => !(target.split("/").at(-1)! in components))).toEqual([]);
    // The one that holds no other unnamed model is one component, wherever it is met.
    const link = {
      type: "object",
      properties: { next: expect.objectContaining({ $ref: expect.any(String) }) },
    };
    const links = Object.values(components).filter((body) =>
      expect.objectContaining(link).asymmetricMatch(body),
    );
    expect(links).toHaveLength(1);
    expect(doc.paths["/b"].get.responses["200"].content["application/json"].schema).toEqual({
      $ref: `#/components/schemas/${Object.keys(components).find((name) => components[name] === links[0])}`,
    });
  });

  it("names a schema registered in Zod's global registry, and documents a lone unaliased form model as itself", () => {
    const Login = z.object({ user: z.string(), password: z.string().min(8) });
    z.globalRegistry.add(Login, { id: "Login" });
    const app = createApp({
      routes: [path("/login", { endpoint: ok(JsonResponse, { login: p.Form(Login) }), methods: ["POST"] })],
    });
    const doc = app.openapi() as any;
    expect(doc.paths["/login"].post.requestBody).toEqual({
      required: true,
      content: { "application/x-www-form-urlencoded": { schema: ref("Login") } },
    });
    expect(doc.components.schemas.Login).toEqual({
      type: "object",
      properties: { user: { type: "string" }, password: { type: "string", minLength: 8 } },
      required: ["user", "password"],
    });
  });

  it("closes a body that a strict model shares, as the server refuses the names no parameter reads", () => {
    const Login = z.strictObject({ username: z.string(), password: z.string() });
    const app = createApp({
      routes: [
        path("/form", {
          endpoint: ok(JsonResponse, {
            login: p.Form(Login),
            remember: p.Form(z.boolean(), { default: false }),
          }),
          methods: ["POST"],
        }),
        path("/json", {
          endpoint: ok(JsonResponse, {
            login: p.Json(Login),
            remember: p.Json(z.boolean(), { default: false }),
          }),
          methods: ["POST"],
        }),
      ],
    });
    const doc = app.openapi() as any;
    const closed = {
      type: "object",
      properties: {
        username: { type: "string" },
        password: { type: "string" },
        remember: { default: false, type: "boolean" },
      },
      required: ["username", "password"],
      additionalProperties: false,
    };
    expect(doc.paths["/form"].post.requestBody.content["application/x-www-form-urlencoded"].schema).toEqual(
      closed,
    );
    expect(doc.paths["/json"].post.requestBody.content["application/json"].schema).toEqual(closed);
  });

  it("documents a nullable value read from text (path, query, header, cookie, form) without null, which text cannot carry", () => {
    const app = createApp({
      routes: [
        path("/nullable/{id}", {
          methods: ["POST"],
          endpoint: endpoint({
            params: {
              id: p.Path(z.int().nullable()),
              q: p.Query(z.string().nullable()),
              when: p.Query(z.iso.date().nullable(), { default: null }),
              m: p.Query(
                z.object({ kind: z.enum(["a", "b"]).nullish(), tags: z.array(z.string().nullable()) }),
              ),
              token: p.Header(z.string().nullish()),
              session: p.Cookie(z.uuid().nullable()),
              note: p.Form(z.string().nullable()),
            },
            returns: JsonResponse,
            handler: () => new JsonResponse(null),
          }),
        }),
      ],
    });
    const post = (app.openapi().paths as any)["/nullable/{id}"].post;
    expect(post.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: SAFE_INT },
      { name: "q", in: "query", required: true, schema: { type: "string" } },
      {
        name: "when",
        in: "query",
        required: false,
        schema: { default: null, type: "string", format: "date" },
      },
      { name: "kind", in: "query", required: false, schema: { type: "string", enum: ["a", "b"] } },
      {
        name: "tags",
        in: "query",
        required: true,
        schema: { type: "array", items: { type: "string" }, minItems: 1 },
      },
      { name: "token", in: "header", required: false, schema: { type: "string" } },
      { name: "session", in: "cookie", required: true, schema: { type: "string", format: "uuid" } },
    ]);
    expect(post.requestBody.content["application/x-www-form-urlencoded"].schema).toEqual({
      type: "object",
      properties: { note: { type: "string" } },
      required: ["note"],
    });
  });

  it("documents a required list read from text with at least one item, as the server reads it: none sent is none at all", async () => {
    const app = createApp({
      routes: [
        path("/tags", {
          endpoint: endpoint({
            params: {
              tag: p.Query(z.array(z.string())),
              size: p.Query(z.array(z.int()).max(3)),
              more: p.Query(z.array(z.string()).min(2)),
              optional: p.Query(z.array(z.string()).optional()),
              defaulted: p.Query(z.array(z.string()), { default: [] }),
            },
            returns: JsonResponse,
            handler: (_request, values) => new JsonResponse(values),
          }),
        }),
      ],
    });
    expect(
      (app.openapi().paths as any)["/tags"].get.parameters.map((parameter: any) => [
        parameter.name,
        parameter.required,
        parameter.schema,
      ]),
    ).toEqual([
      ["tag", true, { type: "array", items: { type: "string" }, minItems: 1 }],
      ["size", true, { type: "array", items: SAFE_INT, maxItems: 3, minItems: 1 }],
      ["more", true, { type: "array", items: { type: "string" }, minItems: 2 }],
      ["optional", false, { type: "array", items: { type: "string" } }],
      ["defaulted", false, { default: [], type: "array", items: { type: "string" } }],
    ]);
    const form = createApp({
      routes: [
        path("/tags", {
          methods: ["POST"],
          endpoint: endpoint({
            params: { labels: p.Form(z.object({ name: z.array(z.string()) })) },
            returns: JsonResponse,
            handler: (_request, values) => new JsonResponse(values),
          }),
        }),
        path("/more-tags", {
          methods: ["POST"],
          endpoint: endpoint({
            params: { name: p.Form(z.array(z.string())), note: p.Form(z.string()) },
            returns: JsonResponse,
            handler: (_request, values) => new JsonResponse(values),
          }),
        }),
      ],
    });
    const formSchema = (target: string) =>
      (form.openapi().paths as any)[target].post.requestBody.content["application/x-www-form-urlencoded"]
        .schema;
    expect([formSchema("/tags").properties.name, formSchema("/more-tags").properties.name]).toEqual([
      { type: "array", items: { type: "string" }, minItems: 1 },
      { type: "array", items: { type: "string" }, minItems: 1 },
    ]);
    const formAnswer = await testClient(form).post("/more-tags", { form: { note: "x" } });
    expect(formAnswer.json()).toMatchObject({ detail: [{ loc: ["body", "name"], type: "missing" }] });
    const response = await testClient(app).get("/tags");
    expect(response.json()).toMatchObject({
      detail: [
        { loc: ["query", "tag"], type: "missing" },
        { loc: ["query", "size"], type: "missing" },
        { loc: ["query", "more"], type: "missing" },
      ],
    });
  });

  it("documents an answer model that may be undefined as admitting null, which JSON writes for it", async () => {
    const app = createApp({
      routes: [
        path("/maybe", {
          endpoint: endpoint({
            returns: [p.ResponseSpec({ model: z.string().optional() })],
            handler: () => new JsonResponse(undefined),
          }),
        }),
      ],
    });
    expect((app.openapi().paths as any)["/maybe"].get.responses["200"].content).toEqual(
      jsonBody({ anyOf: [{ type: "string" }, { type: "null" }] }),
    );
    const response = await testClient(app).get("/maybe");
    expect([response.status, response.text]).toEqual([200, "null"]);
  });

  it("keeps a strict model closed and leaves other models open", () => {
    const Strict = z.strictObject({ a: z.string() });
    const app = createApp({
      routes: [path("/strict", { endpoint: ok([p.ResponseSpec({ model: Strict })]) })],
    });
    expect((app.openapi().paths as any)["/strict"].get.responses["200"].content).toEqual(
      jsonBody({
        type: "object",
        properties: { a: { type: "string" } },
        required: ["a"],
        additionalProperties: false,
      }),
    );
  });
});

describe("audit: docs/openapi.md, two different schemas with one id are refused wherever they meet", () => {
  const ok = (returns: any, params: any = {}) =>
    endpoint({ params, returns, handler: () => new JsonResponse({}) });
  const twins = () => ({
    first: z.object({ a: z.string() }).meta({ id: "Twin" }),
    second: z.object({ b: z.string() }).meta({ id: "Twin" }),
  });
  const refusal =
    'Two different schemas are named "Twin" (.meta({ id: "Twin" })), so the OpenAPI document cannot tell them apart; give each schema its own id, or reuse one schema object.';

  it("refuses one in a request body and the other in an answer, rather than naming them Twin-Input and Twin-Output", () => {
    const { first, second } = twins();
    const app = createApp({
      routes: [
        path("/one", { endpoint: ok(JsonResponse, { body: p.Json(first) }), methods: ["POST"] }),
        path("/two", { endpoint: ok([p.ResponseSpec({ model: second })]) }),
      ],
    });
    expect(() => app.openapi()).toThrow(ValueError);
    expect(() => generateOpenApi(app)).toThrow(refusal);
  });

  it("refuses both inside one model with the same ValueError", () => {
    const { first, second } = twins();
    const Pair = z.object({ left: first, right: second });
    const app = createApp({
      routes: [path("/pair", { endpoint: ok(JsonResponse, { pair: p.Json(Pair) }), methods: ["POST"] })],
    });
    expect(() => app.openapi()).toThrow(ValueError);
    expect(() => generateOpenApi(app)).toThrow(refusal);
  });

  it("still splits one schema that reads differently in and out into Name-Input and Name-Output", () => {
    const Course = z.object({ code: z.string(), credits: z.int().default(3) }).meta({ id: "Course" });
    // The same declaration made twice (a factory) is one schema too.
    const again = z.object({ code: z.string(), credits: z.int().default(3) }).meta({ id: "Course" });
    const app = createApp({
      routes: [
        path("/in", { endpoint: ok(JsonResponse, { course: p.Json(Course) }), methods: ["POST"] }),
        path("/out", { endpoint: ok([p.ResponseSpec({ model: Course })]) }),
        path("/again", { endpoint: ok([p.ResponseSpec({ model: again })]) }),
      ],
    });
    const schemas = (app.openapi() as any).components.schemas;
    expect([schemas["Course-Input"].required, schemas["Course-Output"].required]).toEqual([
      ["code"],
      ["code", "credits"],
    ]);
  });
});

// FastAPI's query_params_str_validations (tutorial010) and path_params_numeric_validations tutorials.
describe("a parameter's options in the document, as FastAPI's tutorials document them", () => {
  it("names a query parameter by its alias and gives its title, description, constraints, pattern and deprecation", () => {
    const app = createApp({
      routes: [
        path("/items/{item_id}", {
          endpoint: endpoint({
            params: {
              item_id: p.Path(z.int(), { title: "The ID of the item to get", ge: 0, le: 1000 }),
              q: p.Query(z.string().optional(), {
                alias: "item-query",
                title: "Query string",
                description: "Query string for the items to search in the database that have a good match",
                minLength: 3,
                maxLength: 50,
                pattern: "^fixedquery$",
                deprecated: true,
              }),
              size: p.Query(z.number(), { gt: 0, lt: 10.5 }),
            },
            returns: JsonResponse,
            handler: (_request, values) => new JsonResponse(values),
          }),
        }),
      ],
    });
    const description = "Query string for the items to search in the database that have a good match";
    expect(app.openapi().paths["/items/{item_id}"]!.get!.parameters).toEqual([
      {
        name: "item_id",
        in: "path",
        required: true,
        schema: { type: "integer", minimum: 0, maximum: 1000, title: "The ID of the item to get" },
      },
      {
        name: "item-query",
        in: "query",
        required: false,
        schema: {
          title: "Query string",
          description,
          deprecated: true,
          type: "string",
          minLength: 3,
          maxLength: 50,
          pattern: "^fixedquery$",
        },
        description,
        deprecated: true,
      },
      {
        name: "size",
        in: "query",
        required: true,
        schema: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 10.5 },
      },
    ]);
  });
});

describe("placeholders in the document (OpenAPI 3.1: every template expression has its path parameter)", () => {
  const echoed = (params: any) =>
    endpoint({ params, returns: JsonResponse, handler: () => new JsonResponse({}) });
  const app = createApp({
    routes: [
      path("/items/{ids}", { endpoint: echoed({}), name: "read_items" }),
      path("/shelves/{shelf}/items/{ids}", { endpoint: echoed({ shelf: z.int() }), name: "shelf_items" }),
      path("/files/{file_path:path}", { endpoint: echoed({ file_path: z.string().min(1) }) }),
      path("/raw/{rest:path}", { endpoint: echoed({}), name: "raw" }),
    ],
  });
  const document = app.openapi();
  const operationAt = (route: string) => (document.paths as any)[route].get;

  it("documents a placeholder no parameter reads as a required string path parameter, with no validation error of its own", () => {
    expect(operationAt("/items/{ids}").parameters).toEqual([
      { name: "ids", in: "path", required: true, schema: { type: "string" } },
    ]);
    expect(Object.keys(operationAt("/items/{ids}").responses)).toEqual(["200"]);
    expect(operationAt("/shelves/{shelf}/items/{ids}").parameters).toEqual([
      {
        name: "shelf",
        in: "path",
        required: true,
        schema: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
      },
      { name: "ids", in: "path", required: true, schema: { type: "string" } },
    ]);
  });

  it("documents a {name:path} placeholder as {name}, with its parameter, as FastAPI's document shows it", () => {
    expect(Object.keys(document.paths ?? {})).toEqual([
      "/items/{ids}",
      "/shelves/{shelf}/items/{ids}",
      "/files/{file_path}",
      "/raw/{rest}",
    ]);
    expect(operationAt("/files/{file_path}")).toMatchObject({
      operationId: "get_files_file_path",
      parameters: [
        { name: "file_path", in: "path", required: true, schema: { type: "string", minLength: 1 } },
      ],
    });
    expect(operationAt("/raw/{rest}").parameters).toEqual([
      { name: "rest", in: "path", required: true, schema: { type: "string" } },
    ]);
  });
});
