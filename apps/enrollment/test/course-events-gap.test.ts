import { type RunningServer, readEvents, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createEnrollmentApp } from "../src/app.ts";
import { type Database, openDatabase } from "../src/db/index.ts";
import { createStudents, createTestCourse } from "./support/fixtures.ts";
import { postgresInstalled, startPrivatePostgres } from "./support/postgres.ts";

type PrivatePostgres = Awaited<ReturnType<typeof startPrivatePostgres>>;

vi.setConfig({ testTimeout: 90_000 });

// The delivery promise: at most once. A change told while the broker was away is lost, so after the
// gap the stream sends the course's current state again: a client never stays on a stale count.
describe.skipIf(!postgresInstalled())("a course's event stream across a PostgreSQL outage", () => {
  let cluster: PrivatePostgres;
  let database: Database;
  let server: RunningServer;
  const logged: unknown[] = [];

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    database = await openDatabase(await cluster.createDatabase());
    const log = { error: (details: Record<string, unknown>) => void logged.push(details.err) };
    server = await startServer(createEnrollmentApp(database, { log }));
  });

  afterAll(async () => {
    await server?.close();
    await database?.close();
    await cluster?.stop();
  });

  it("sends the current state again once the broker is back, then follows changes as before", async () => {
    const [first, second] = await createStudents(database, 2);
    const courseId = await createTestCourse(database, { max_students: 3 });
    const abort = new AbortController();
    const response = await server.fetch(`/api/enroll/course-events?course_id=${courseId}`, {
      signal: abort.signal,
    });
    const events = readEvents(response.body!)[Symbol.asyncIterator]();
    const next = async () => (await events.next()).value;
    const seats = (enrolled: number) => ({
      course_id: courseId,
      enrolled,
      max_students: 3,
      seats_left: 3 - enrolled,
    });
    expect(await next()).toEqual({ id: "1", data: seats(0) });

    // A change whose news is lost: written without announcing it, as a NOTIFY during an outage would be.
    await database.kysely
      .insertInto("enrollments")
      .values({ student_id: first!, course_id: courseId, created_at: new Date().toISOString() })
      .execute();
    await cluster.control.kill();
    await cluster.control.start();

    // The gap: the stream reads the course again and sends what it finds.
    expect(await next()).toEqual({ id: "2", data: seats(1) });
    // Followed as before once the broker is back (a bind may fail while the pool reconnects).
    for (let attempt = 0; ; attempt++) {
      const answer = await server.fetch("/api/enroll/bind", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ student_id: second, course_id: courseId }),
      });
      if (((await answer.json()) as { code: number }).code === 0) break;
      if (attempt > 100) throw new Error("the bind never succeeded after the outage");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await next()).toEqual({ id: "3", data: seats(2) });
    await events.return?.();
    abort.abort();
  });
});
