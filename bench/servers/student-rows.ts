// The 100 fixed rows of GET /api/enroll/students, shared by every server. A handler's rows carry a
// password hash, as rows read from a users table would; the declared model leaves it out, and the
// benchmark's check makes sure no server sends it.
import { z } from "zod";
import { STUDENT_JSON_SCHEMA } from "./student-json-schema.ts";

/** One student as the API declares it (the enrollment service's StudentSerializer). */
export const Student = z.object({
  id: z.int(),
  name: z.string().max(100),
  email: z.string(),
  age: z.int(),
  student_id: z.string().max(20),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

export const StudentPage = z.object({
  code: z.int().default(0),
  message: z.string().default(""),
  data: z.array(Student),
});

/** The rows as a handler has them: every declared field, and the hash that must stay home. */
export const STUDENT_ROWS = Array.from({ length: 100 }, (_, index) => {
  const id = index + 1;
  return {
    id,
    name: `Student ${id} Zoë`,
    email: `student${id}@example.edu`,
    age: 18 + (id % 40),
    student_id: `S${String(id).padStart(6, "0")}`,
    created_at: "2024-09-01T08:00:00.000Z",
    updated_at: "2024-09-02T08:00:00.000Z",
    password_hash: `$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ${id}$hY8bWk3Lp6kD0rS1q2T3v4W5x6Y7z8A9B0c1D2e3F4g`,
  };
});

/** The same rows as the API declares them: what raw node:http sends with JSON.stringify. */
export const DECLARED_ROWS = STUDENT_ROWS.map(({ password_hash: _hash, ...declared }) => declared);

/** Fastify's response schema of the page (fast-json-stringify writes only these properties). */
export const STUDENT_PAGE_JSON_SCHEMA = {
  type: "object",
  properties: {
    code: { type: "integer" },
    message: { type: "string" },
    data: { type: "array", items: STUDENT_JSON_SCHEMA },
  },
  required: ["code", "message", "data"],
} as const;
