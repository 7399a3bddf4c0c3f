// The end of a request against real databases (SQLite file, PostgreSQL): a yield dependency holds a
// transaction; a task queued with afterResponse() writes with it before it commits; a unique-key
// conflict is translated into a 409 by its clean-up; scope "function" commits before the answer.
import { createApp, HttpError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import { startServer } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isUniqueViolation } from "../src/db/index.ts";
import { dialects, useFreshDatabase } from "./support/test-databases.ts";

const NOW = "2026-01-01T00:00:00.000Z";

let numbers = 0;

function student(email: string) {
  return { name: "Ann", email, age: 20, student_id: `S${++numbers}`, created_at: NOW, updated_at: NOW };
}

describe.each(dialects)("the end of a request on %s", (dialect) => {
  const db = useFreshDatabase(dialect);

  function appWith(scope: "request" | "function") {
    const session = dependency({
      name: "session",
      scope,
      async *resolve() {
        const trx = await db().kysely.startTransaction().execute();
        try {
          yield trx;
          await trx.commit().execute();
        } catch (error) {
          await trx.rollback().execute();
          if (isUniqueViolation(error)) throw new HttpError(409, "That email is already registered");
          throw error;
        }
      },
    });
    const register = endpoint({
      params: { email: p.Json(z.email()), trx: p.Depends(session) },
      returns: [p.ResponseSpec({ code: "201", model: z.object({ email: z.email() }) })],
      async handler(request, { email, trx }) {
        await trx.insertInto("students").values(student(email)).execute();
        // Written with the request's transaction after the answer, before it commits.
        if (scope === "request") {
          request.afterResponse(async () => {
            await trx
              .insertInto("students")
              .values(student(`audit-${email}`))
              .execute();
          });
        }
        return new JsonResponse({ email });
      },
    });
    return createApp({ routes: [path("/students", { endpoint: register, methods: ["POST"] })] });
  }

  async function emails(): Promise<string[]> {
    const rows = await db().kysely.selectFrom("students").select("email").orderBy("email").execute();
    return rows.map((row) => row.email);
  }

  async function post(app: ReturnType<typeof appWith>, email: string) {
    const server = await startServer(app);
    try {
      const response = await server.fetch("/students", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email }),
      });
      const answer = [response.status, await response.json()];
      const seenOnAnswer = await emails();
      await app.settled();
      return { answer, seenOnAnswer };
    } finally {
      await server.close();
    }
  }

  it("a task after the answer writes with the request's transaction; both rows commit together", async () => {
    const { answer } = await post(appWith("request"), "ann@example.edu");
    expect(answer).toEqual([201, { email: "ann@example.edu" }]);
    expect(await emails()).toEqual(["ann@example.edu", "audit-ann@example.edu"]);
  });

  it("a unique-key conflict is rolled back and answered 409 by the clean-up", async () => {
    await db().kysely.insertInto("students").values(student("ann@example.edu")).execute();
    const { answer } = await post(appWith("request"), "ann@example.edu");
    expect(answer).toEqual([409, { detail: "That email is already registered" }]);
    expect(await emails()).toEqual(["ann@example.edu"]);
  });

  it('scope "function" commits before the client has the answer', async () => {
    const { answer, seenOnAnswer } = await post(appWith("function"), "bob@example.edu");
    expect(answer).toEqual([201, { email: "bob@example.edu" }]);
    expect(seenOnAnswer).toEqual(["bob@example.edu"]);
  });
});
