// A student as the enrollment API's StudentSerializer declares it, in JSON Schema: the response
// schema of both Fastify servers (fast-json-stringify writes these properties only).
export const STUDENT_JSON_SCHEMA = {
  type: "object",
  properties: {
    id: { type: "integer" },
    name: { type: "string" },
    email: { type: "string" },
    age: { type: "integer" },
    student_id: { type: "string" },
    created_at: { type: "string" },
    updated_at: { type: "string" },
  },
} as const;
