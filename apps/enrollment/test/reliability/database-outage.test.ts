import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEnrollmentApp } from "../../src/app.ts";
import { type Database, openDatabase } from "../../src/db/index.ts";
import { createStudent } from "../../src/services.ts";
import { TEST_ADMIN_TOKEN } from "../support/api.ts";
import { studentInput } from "../support/fixtures.ts";
import { postgresInstalled, startPrivatePostgres } from "../support/postgres.ts";

type PrivatePostgres = Awaited<ReturnType<typeof startPrivatePostgres>>;

const INTERNAL_ERROR = { code: 500, message: "Internal server error", data: null };
// Generous for a busy machine, far below what a hang would take.
const ANSWER_WITHIN_MS = 5_000;

// The outage is real: our own cluster, stopped and started again under the running service.
describe.skipIf(!postgresInstalled())("the service while PostgreSQL is down", () => {
  let cluster: PrivatePostgres;
  let database: Database;
  let server: RunningServer;
  const internalErrors: unknown[] = [];

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    database = await openDatabase(await cluster.createDatabase());
    await createStudent(database, studentInput(1));
    const log = { error: (details: Record<string, unknown>) => void internalErrors.push(details.err) };
    server = await startServer(createEnrollmentApp(database, { log, adminToken: TEST_ADMIN_TOKEN }));
  });

  afterAll(async () => {
    await server?.close();
    await database?.close();
    await cluster?.stop();
  });

  async function timed(path: string, body?: unknown) {
    const started = performance.now();
    const init: RequestInit =
      body === undefined
        ? {}
        : {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
            body: JSON.stringify(body),
          };
    const response = await server.fetch(path, { ...init, signal: AbortSignal.timeout(15_000) });
    const text = await response.json();
    return { status: response.status, body: text as { code: number }, ms: performance.now() - started };
  }

  it("answers every endpoint with the generic code-500 envelope, quickly, and recovers by itself", async () => {
    await cluster.control.kill();

    const requests: [string, unknown?][] = [
      ["/api/enroll/student-list"],
      ["/api/enroll/course-list?search=x"],
      ["/api/enroll/bind", { student_id: 1, course_id: 1 }],
      ["/api/enroll/unbind", { student_id: 1, course_id: 1 }],
      ["/api/enroll/student-create", studentInput(2)],
      ["/api/enroll/course-create", { name: "Databases", code: "CS340" }],
    ];
    for (const [path, body] of requests) {
      const answer = await timed(path, body);
      // The envelope and nothing else: no stack trace, no SQL, no connection details.
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 200,
        body: INTERNAL_ERROR,
      });
      expect(answer.ms, `${path} took ${Math.round(answer.ms)} ms`).toBeLessThan(ANSWER_WITHIN_MS);
    }
    expect(internalErrors.length).toBe(requests.length);
    // A validation failure needs no database and is still told as such.
    expect((await timed("/api/enroll/bind", { student_id: 0, course_id: 1 })).body).toMatchObject({
      code: 422,
    });

    await cluster.control.start();
    const deadline = performance.now() + 20_000;
    let list = await timed("/api/enroll/student-list");
    while (list.body.code !== 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      list = await timed("/api/enroll/student-list");
    }
    expect(list.body).toMatchObject({ code: 0, data: [{ id: 1, student_id: "S1" }] });
    expect(await timed("/api/enroll/student-create", studentInput(2))).toMatchObject({
      // The id is not checked: PostgreSQL skips sequence values after a crash.
      body: { code: 0, data: { student_id: "S2" } },
    });
  });
});
