// The example of spec/framework.md §1, as a newcomer would copy it, with the model it names.

import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { startServer } from "unruffled/testing";
import { expect, it } from "vitest";
import { z } from "zod";

const StudentListResponse = z.object({
  code: z.int().default(0),
  message: z.string().default(""),
  data: z.array(z.object({ id: z.int(), name: z.string() })),
  // Declared so that the answer can show the coerced values: undeclared fields are never sent.
  page: z.int(),
  size: z.int(),
});

export const listStudents = endpoint({
  summary: "List students",
  params: {
    page: p.Query(z.int(), { default: 1, ge: 1, description: "Page number" }),
    size: p.Query(z.int(), { default: 10, ge: 1, le: 100, description: "Items per page" }),
  },
  returns: [p.ResponseSpec({ model: StudentListResponse })],
  async handler(_request, { page, size }) {
    return new JsonResponse({ code: 0, message: "success", data: [], page, size });
  },
});

it("serves the specification's example endpoint with coerced, validated parameters", async () => {
  const app = createApp({
    routes: [path("/student-list", { endpoint: listStudents, methods: ["GET"], name: "list_students" })],
  });
  const server = await startServer(app);
  try {
    const ok = await server.fetch("/student-list?page=2");
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ code: 0, message: "success", data: [], page: 2, size: 10 });
    const bad = await server.fetch("/student-list?size=101");
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({
      detail: [
        { loc: ["query", "size"], msg: "Too big: expected number to be <=100", type: "too_big", input: 101 },
      ],
    });
  } finally {
    await server.close();
  }
});
