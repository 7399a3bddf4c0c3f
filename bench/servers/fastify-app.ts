// Fastify 5 with JSON-schema route validation (Ajv) and response-schema serialization
// (fast-json-stringify), written the way Fastify's documentation suggests: the routes every
// comparison measures, and two parts a server file may add, the CORS-and-compression scope and the
// secured list. fastify.ts has both and fastify-minimal.ts neither, so that a corun of the two shows
// what they cost the routes they do not touch; FASTIFY_WITHOUT=scope (or =secure), which fastify.ts
// reads, splits that cost between them.
// Fastify answers validation failures with 400 by default; the shared rule is 422, so an error
// handler maps them.
import compress from "@fastify/compress";
import cors from "@fastify/cors";
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import { STUDENT_PAGE_JSON_SCHEMA, STUDENT_ROWS } from "./student-rows.ts";

/** The parts beyond the measured routes. */
export interface FastifyParts {
  /** `/mw`: the list and a long hello under @fastify/cors and @fastify/compress, in their own scope. */
  scope: boolean;
  /** `/api/enroll/secure-list`: the list behind an onRequest bearer check. */
  secure: boolean;
}

type ListQuery = { page: number; size: number };
type BindBody = { student_id: number; course_id: number };

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

const bindSchema = {
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
          properties: { student_id: { type: "integer" }, course_id: { type: "integer" } },
        },
      },
    },
  },
};

/** The app with the parts asked for, listening on PORT; prints `listening <port>` as every server does. */
export async function serveFastify(parts: FastifyParts): Promise<void> {
  const app = Fastify({ logger: false });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error.validation) {
      const where = error.validationContext ?? "request";
      return reply.status(422).send({
        detail: error.validation.map((issue) => ({
          loc: [where, ...issue.instancePath.split("/").filter(Boolean)],
          msg: issue.message ?? "invalid",
          ...(issue.params && "missingProperty" in issue.params
            ? { field: issue.params.missingProperty }
            : {}),
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

  app.get<{ Querystring: ListQuery }>("/api/enroll/student-list", { schema: listSchema }, async () => ({
    code: 0,
    message: "success",
    data: [],
  }));

  if (parts.scope) await registerScope(app);
  if (parts.secure) registerSecureList(app);

  app.post<{ Body: BindBody }>("/api/enroll/bind", { schema: bindSchema }, async (request) => {
    const { student_id, course_id } = request.body;
    return {
      code: 0,
      message: `Student ${student_id} bound to course ${course_id}`,
      data: { student_id, course_id },
    };
  });

  // The response schema leaves the rows' password hash out.
  app.get("/api/enroll/students", { schema: { response: { 200: STUDENT_PAGE_JSON_SCHEMA } } }, async () => ({
    code: 0,
    message: "success",
    data: STUDENT_ROWS,
  }));

  const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
  console.log(`listening ${new URL(address).port}`);
}

/** The list again, under CORS and compression: the plugins registered in this prefix's scope only. */
async function registerScope(app: FastifyInstance): Promise<void> {
  await app.register(
    async (scope) => {
      await scope.register(cors, { origin: ["https://app.example.com"] });
      await scope.register(compress);
      scope.get<{ Querystring: ListQuery }>("/api/enroll/student-list", { schema: listSchema }, async () => ({
        code: 0,
        message: "success",
        data: [],
      }));
      scope.get("/hello-long", async (_request, reply) => {
        reply.type("text/plain; charset=utf-8");
        return "Hello, World! ".repeat(100);
      });
    },
    { prefix: "/mw" },
  );
}

/** The secured list: Fastify's usual shape for authentication, an onRequest hook before validation. */
function registerSecureList(app: FastifyInstance): void {
  app.get<{ Querystring: ListQuery }>(
    "/api/enroll/secure-list",
    {
      onRequest: async (request, reply) => {
        if (request.headers.authorization !== "Bearer bench-token") {
          return reply.code(401).header("www-authenticate", "Bearer").send({ detail: "Not authenticated" });
        }
      },
      schema: listSchema,
    },
    async () => ({ code: 0, message: "success", data: [] }),
  );
}
