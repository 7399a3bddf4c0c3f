// The seed's conventions (spec: "Conventions" and "Codes") where api.test.ts leaves them open: every
// answer under /api/enroll is HTTP 200 with the envelope, for any method a route does not take, for a
// path that is only near a route, for a JSON text sent without its content type; and the OpenAPI
// document describes the envelopes, the error envelope included.
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.ts";

describe("the enrollment API's envelope conventions", () => {
  const api = useApi("sqlite");

  /** Sends one request over loopback HTTP: its status, Allow header and JSON body. */
  async function send(method: string, path: string, init: RequestInit = {}) {
    const server = await api.http();
    const response = await server.fetch(path, { method, ...init });
    return { status: response.status, allow: response.headers.get("allow"), body: await response.json() };
  }

  it.each([
    ["POST", "/api/enroll/student-list", "GET, HEAD"],
    ["DELETE", "/api/enroll/course-list", "GET, HEAD"],
    ["POST", "/api/enroll/hello", "GET, HEAD"],
    ["PUT", "/api/enroll/bind", "POST"],
    ["PATCH", "/api/enroll/unbind", "POST"],
    ["DELETE", "/api/enroll/student-create", "POST"],
    ["OPTIONS", "/api/enroll/course-create", "POST"],
    ["POST", "/api/enroll/course-events", "GET, HEAD"],
  ])("405 for %s %s: HTTP 200, the allowed methods named and in Allow", async (method, path, allowed) => {
    expect(await send(method, path)).toEqual({
      status: 200,
      allow: allowed,
      body: { code: 405, message: `Method ${method} not allowed; allowed: ${allowed}`, data: null },
    });
  });

  it.each(["/api/enroll", "/api/enroll/", "/api/enroll/hello/", "/api/enroll/Student-List"])(
    "404 for %s, a path that is no route: HTTP 200, the path named",
    async (path) => {
      expect(await send("GET", path)).toEqual({
        status: 200,
        allow: null,
        body: { code: 404, message: `No route GET ${path}`, data: null },
      });
    },
  );

  it("400 for a JSON text sent as text (fetch sends a string as text/plain): the type named", async () => {
    expect(await send("POST", "/api/enroll/bind", { body: '{"student_id":1,"course_id":1}' })).toEqual({
      status: 200,
      allow: null,
      body: { code: 400, message: "Expected a JSON body (application/json), got text/plain", data: null },
    });
  });

  it("reads a body sent with no Content-Type at all as JSON, as FastAPI does", async () => {
    const body = new TextEncoder().encode('{"student_id":1,"course_id":1}');
    expect(await send("POST", "/api/enroll/bind", { body })).toEqual({
      status: 200,
      allow: null,
      body: { code: 404, message: "Student 1 not found", data: null },
    });
  });

  it("400 for a body sent with a content coding, and Accept-Encoding says which one is read", async () => {
    const server = await api.http();
    const response = await server.fetch("/api/enroll/bind", {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: new Uint8Array(gzipSync('{"student_id":1,"course_id":1}')),
    });
    expect([response.status, response.headers.get("accept-encoding"), await response.json()]).toEqual([
      200,
      "identity",
      {
        code: 400,
        message: "Expected a body without a content coding (Content-Encoding), got gzip",
        data: null,
      },
    ]);
  });

  it("the OpenAPI document gives every route only a 200 answer, its success envelope or the error envelope", () => {
    const document = api.client().app.openapi();
    const envelope = (success: string) => ({
      "application/json": {
        schema: {
          anyOf: [
            { $ref: `#/components/schemas/${success}` },
            { $ref: "#/components/schemas/ErrorResponse" },
          ],
        },
      },
    });
    const failure = { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } };
    const answers = Object.fromEntries(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item!).map(([method, operation]) => {
          const responses = (operation as { responses: Record<string, { content: Record<string, unknown> }> })
            .responses;
          const content = Object.fromEntries(
            Object.entries(responses).map(([status, response]) => [status, response.content]),
          );
          return [`${method.toUpperCase()} ${path}`, content];
        }),
      ),
    );
    expect(answers).toEqual({
      "GET /api/enroll/hello": { 200: { "text/plain": { schema: { type: "string" } }, ...failure } },
      "GET /api/enroll/student-list": { 200: envelope("StudentListResponse") },
      "GET /api/enroll/course-list": { 200: envelope("CourseListResponse") },
      "POST /api/enroll/bind": { 200: envelope("BindResponse") },
      "POST /api/enroll/unbind": { 200: envelope("BindResponse") },
      "POST /api/enroll/student-create": { 200: envelope("StudentResponse") },
      "POST /api/enroll/course-create": { 200: envelope("CourseResponse") },
      "GET /api/enroll/course-events": {
        200: { "text/event-stream": expect.objectContaining({ schema: expect.any(Object) }), ...failure },
      },
    });
  });

  it('the OpenAPI document\'s envelopes: code (default 0), message (default "") and data, all required', () => {
    const schemas = api.client().app.openapi().components!.schemas!;
    const base = (data: unknown) => ({
      type: "object",
      properties: {
        code: {
          default: 0,
          description: "Response code, 0 = success",
          type: "integer",
          minimum: -9007199254740991,
          maximum: 9007199254740991,
        },
        message: { default: "", description: "Response message", type: "string" },
        data,
      },
      required: ["code", "message", "data"],
    });
    expect(schemas.StudentListResponse).toEqual(
      base({ type: "array", items: { $ref: "#/components/schemas/StudentSerializer" } }),
    );
    expect(schemas.CourseListResponse).toEqual(
      base({ type: "array", items: { $ref: "#/components/schemas/CourseSerializer" } }),
    );
    expect(schemas.BindResponse).toEqual(
      base({
        type: "object",
        properties: {
          student_id: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
          course_id: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
        },
        required: ["student_id", "course_id"],
        description: "The pair that was bound or unbound",
      }),
    );
    expect(schemas.ErrorResponse).toEqual({
      type: "object",
      properties: {
        code: {
          type: "integer",
          minimum: -9007199254740991,
          maximum: 9007199254740991,
          description: "400, 404, 405, 409, 413, 422 or 500",
        },
        message: { type: "string" },
        data: {
          anyOf: [
            {
              type: "object",
              properties: {
                errors: { type: "array", items: { $ref: "#/components/schemas/ValidationIssue" } },
              },
              required: ["errors"],
            },
            { type: "null" },
          ],
        },
      },
      required: ["code", "message", "data"],
    });
    expect(schemas.ValidationIssue).toMatchObject({ required: ["loc", "msg", "type", "input"] });
  });
});
