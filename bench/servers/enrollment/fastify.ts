// The enrollment service's student-list and bind in Fastify 5: JSON schemas for querystring, body and
// response (Ajv, fast-json-stringify), around the same service functions and the same envelopes
// as apps/enrollment (every outcome is HTTP 200 with { code, message, data }).
import Fastify, { type FastifyError } from "fastify";
import { BusinessError, bindCourse, listStudents } from "../../../apps/enrollment/src/services.ts";
import { STUDENT_JSON_SCHEMA } from "../student-json-schema.ts";
import { seededDatabase } from "./seed.ts";

// Ids are 32-bit integer columns on PostgreSQL: the app refuses larger ones (schemas.ts).
const MAX_ID = 2_147_483_647;

const seeded = await seededDatabase();
const { database } = seeded;
const app = Fastify({ logger: false });
// The app takes JSON bodies only: another content type is refused (415, then 400 in the envelope).
app.removeContentTypeParser("text/plain");

const envelope = (code: number, message: string, data: unknown = null) => ({ code, message, data });

/** The app's error envelopes (error-envelopes.ts): the refusal's code in the body. */
function errorEnvelope(error: FastifyError | BusinessError) {
  if (error instanceof BusinessError) return envelope(error.code, error.message);
  if (error.validation) return envelope(422, "Request validation failed", { errors: error.validation });
  // a body that is not JSON is a malformed request, as in the app
  if (error.statusCode === 415) return envelope(400, error.message);
  if (error.statusCode !== undefined && error.statusCode < 500)
    return envelope(error.statusCode, error.message);
  console.error(error);
  return envelope(500, "Internal server error");
}

// Serialized here, as HTTP 200: the routes' response schemas describe their success only.
app.setErrorHandler((error: FastifyError | BusinessError, _request, reply) =>
  reply
    .status(200)
    .type("application/json; charset=utf-8")
    .send(JSON.stringify(errorEnvelope(error))),
);

app.setNotFoundHandler((request, reply) => {
  reply.send(envelope(404, `No route ${request.method} ${request.url.split("?")[0]}`));
});

type ListQuery = { page: number; size: number; search?: string };

app.get<{ Querystring: ListQuery }>(
  "/api/enroll/student-list",
  {
    schema: {
      querystring: {
        type: "object",
        properties: {
          page: { type: "integer", minimum: 1, default: 1 },
          size: { type: "integer", minimum: 1, maximum: 100, default: 10 },
          search: { type: "string", maxLength: 100, pattern: "^[^\\u0000]*$" },
        },
      },
      response: {
        200: {
          type: "object",
          properties: {
            code: { type: "integer" },
            message: { type: "string" },
            data: { type: "array", items: STUDENT_JSON_SCHEMA },
          },
        },
      },
    },
  },
  async (request) => ({ code: 0, message: "success", data: await listStudents(database, request.query) }),
);

type BindBody = { student_id: number; course_id: number };
const id = { type: "integer", exclusiveMinimum: 0, maximum: MAX_ID };

app.post<{ Body: BindBody }>(
  "/api/enroll/bind",
  {
    schema: {
      body: {
        type: "object",
        required: ["student_id", "course_id"],
        properties: { student_id: id, course_id: id },
      },
      response: {
        200: {
          type: "object",
          properties: {
            code: { type: "integer" },
            message: { type: "string" },
            data: {
              type: "object",
              properties: { student_id: { type: "integer" }, course_id: { type: "integer" } },
            },
          },
        },
      },
    },
  },
  async (request) => {
    const data = await bindCourse(database, request.body.student_id, request.body.course_id);
    return { code: 0, message: `Student ${data.student_id} enrolled in course ${data.course_id}`, data };
  },
);

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
console.log(`listening ${new URL(address).port}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, async () => {
    await app.close();
    await seeded.discard();
    process.exit(0);
  });
}
