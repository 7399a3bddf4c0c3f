// Fastify 5 reduced to the routes the runtime comparisons measure (hello, list, bind, the 100-row
// list), with their schemas (Ajv, fast-json-stringify) and the 422 error handler every server has:
// fastify.ts without the CORS-and-compression scope and the secured list. Beside fastify.ts so
// that `npm run bench:corun -- --a bench/servers/fastify.ts --b bench/servers/fastify-minimal.ts`
// shows what those cost the routes they do not touch.
// Fastify answers validation failures with 400 by default; the shared rule is 422, so an error
// handler maps them.
import Fastify, { type FastifyError } from "fastify";
import { STUDENT_PAGE_JSON_SCHEMA, STUDENT_ROWS } from "./student-rows.ts";

const app = Fastify({ logger: false });

app.setErrorHandler((error: FastifyError, _request, reply) => {
  if (error.validation) {
    const where = error.validationContext ?? "request";
    return reply.status(422).send({
      detail: error.validation.map((issue) => ({
        loc: [where, ...issue.instancePath.split("/").filter(Boolean)],
        msg: issue.message ?? "invalid",
        ...(issue.params && "missingProperty" in issue.params ? { field: issue.params.missingProperty } : {}),
      })),
    });
  }
  const status = error.statusCode ?? 500;
  return reply.status(status).send({ detail: status >= 500 ? "Internal Server Error" : error.message });
});

app.get("/hello", async (_request, reply) => {
  reply.type("text/plain; charset=utf-8");
  return "Hello, World!";
});

type ListQuery = { page: number; size: number };

const listSchema = {
  querystring: {
    type: "object",
    properties: {
      page: { type: "integer", minimum: 1, default: 1 },
      size: { type: "integer", minimum: 1, maximum: 100, default: 10 },
    },
  },
  response: {
    200: {
      type: "object",
      properties: {
        code: { type: "integer" },
        message: { type: "string" },
        data: {
          type: "array",
          items: {
            type: "object",
            properties: { id: { type: "integer" }, name: { type: "string" } },
          },
        },
      },
    },
  },
};

app.get<{ Querystring: ListQuery }>("/api/enroll/student-list", { schema: listSchema }, async (_request) => ({
  code: 0,
  message: "success",
  data: [],
}));

type BindBody = { student_id: number; course_id: number };

app.post<{ Body: BindBody }>(
  "/api/enroll/bind",
  {
    schema: {
      body: {
        type: "object",
        required: ["student_id", "course_id"],
        properties: {
          student_id: { type: "integer", exclusiveMinimum: 0 },
          course_id: { type: "integer", exclusiveMinimum: 0 },
        },
      },
      response: {
        200: {
          type: "object",
          properties: {
            code: { type: "integer" },
            message: { type: "string" },
            data: {
              type: "object",
              properties: {
                student_id: { type: "integer" },
                course_id: { type: "integer" },
              },
            },
          },
        },
      },
    },
  },
  async (request) => {
    const { student_id, course_id } = request.body;
    return {
      code: 0,
      message: `Student ${student_id} bound to course ${course_id}`,
      data: { student_id, course_id },
    };
  },
);

// The response schema leaves the rows' password hash out.
app.get("/api/enroll/students", { schema: { response: { 200: STUDENT_PAGE_JSON_SCHEMA } } }, async () => ({
  code: 0,
  message: "success",
  data: STUDENT_ROWS,
}));

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
console.log(`listening ${new URL(address).port}`);
