import { mkdtemp, rm } from "node:fs/promises";
import { type IncomingMessage, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "process-support";
import { readEvents } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/index.ts";
import { createStudents, createTestCourse } from "../support/fixtures.ts";
import { get, type ServiceProcess, send, startService } from "./support/service-process.ts";

/** A GET on a connection of its own whose answer is read as it arrives; `close()` hangs up. */
function openStream(port: number, path: string) {
  return new Promise<{ response: IncomingMessage; close: () => void }>((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, path, agent: false }, (response) =>
      resolve({ response, close: () => outgoing.destroy() }),
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

// Two worker processes of the real service on one SQLite file: the app's default PubSub relays the
// seat changes through the cluster primary.
describe("the service with two workers on SQLite", () => {
  let dir: string;
  let database: Database;
  let service: ServiceProcess;
  let studentIds: number[];
  const workers = new Set<number>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "enrollment-workers-sqlite-"));
    const path = join(dir, "enrollment.db");
    database = await openDatabase(path);
    studentIds = await createStudents(database, 20);
    service = await startService({ databaseUrl: path, args: ["--workers", "2"] });
    await waitFor(
      "answers from both workers",
      async () => {
        const answer = await get(service.port, "/api/enroll/hello");
        if (answer !== undefined) workers.add(answer.servedBy);
        return workers.size === 2 ? true : undefined;
      },
      { timeoutMs: 60_000 },
    );
  });

  afterAll(async () => {
    if (service !== undefined && service.child.exitCode === null) service.signal("SIGKILL");
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("a bind served by one worker reaches a course's event stream held by the other (the workers broker)", async () => {
    const courseId = await createTestCourse(database);
    const stream = await openStream(service.port, `/api/enroll/course-events?course_id=${courseId}`);
    const heldBy = Number(stream.response.headers["x-served-by"]);
    const events = readEvents<{ enrolled: number }>(stream.response)[Symbol.asyncIterator]();
    const enrolledNext = async () => (await events.next()).value?.data.enrolled;
    expect(await enrolledNext()).toBe(0);
    const servedBy: number[] = [];
    for (const [index, studentId] of studentIds.entries()) {
      const answer = await send(service.port, "POST", "/api/enroll/bind", {
        student_id: studentId,
        course_id: courseId,
      });
      expect(JSON.parse(answer!.body)).toMatchObject({ code: 0 });
      servedBy.push(answer!.servedBy);
      expect(await enrolledNext()).toBe(index + 1);
      if (answer!.servedBy !== heldBy) break;
    }
    expect(servedBy.at(-1)).not.toBe(heldBy);
    expect(workers).toContain(heldBy);
    stream.close();
  });
});
