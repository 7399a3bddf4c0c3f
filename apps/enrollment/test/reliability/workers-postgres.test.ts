import { type IncomingMessage, request } from "node:http";
import { waitFor } from "process-support";
import { readEvents } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/index.ts";
import { createStudents, createTestCourse, storedEnrollments } from "../support/fixtures.ts";
import { tally } from "../support/outcomes.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { type Answer, get, type ServiceProcess, send, startService } from "./support/service-process.ts";

/** The envelope's code and message, as `tally` counts them. */
function outcomeOf(answer: Answer | undefined): string {
  if (answer === undefined) return "no answer";
  const { code, message } = JSON.parse(answer.body) as { code: number; message: string };
  return code === 0 ? "ok" : `${code} ${message}`;
}

/** Asks until `accept` takes an answer, each on a new connection (so each may reach another worker). */
function askUntil<T>(
  what: string,
  ask: () => Promise<Answer | undefined>,
  accept: (answer: Answer) => T | undefined,
): Promise<T> {
  const probe = async () => {
    const answer = await ask();
    return answer === undefined ? undefined : accept(answer);
  };
  // A worker's start may take up to 60 s on a busy machine.
  return waitFor(what, probe, { timeoutMs: 60_000 });
}

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

/** A course-live WebSocket on Node's own client: each message parsed, and the close code. */
async function openLive(port: number) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api/enroll/course-live`);
  const queue: any[] = [];
  let wake: (() => void) | undefined;
  socket.addEventListener("message", (event) => {
    queue.push(JSON.parse(String(event.data)));
    wake?.();
  });
  const closed = new Promise<number>((resolve) =>
    socket.addEventListener("close", (event) => resolve(event.code)),
  );
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve);
    socket.addEventListener("error", reject);
  });
  return {
    send: (text: string) => socket.send(text),
    close: () => socket.close(),
    closed,
    async next(): Promise<any> {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return queue.shift();
    },
  };
}

// Two worker processes of the real service on one PostgreSQL database, over HTTP.
describe("the service with two workers on PostgreSQL", () => {
  let server: TestPostgres;
  let database: Database;
  let service: ServiceProcess;
  let studentIds: number[];
  const workers = new Set<number>();

  beforeAll(async () => {
    server = await startTestPostgres();
    const url = await server.createDatabase();
    database = await openDatabase(url);
    studentIds = await createStudents(database, 50);
    service = await startService({ databaseUrl: url, args: ["--workers", "2"] });
    await askUntil(
      "answers from both workers",
      () => get(service.port, "/api/enroll/hello"),
      (answer) => {
        workers.add(answer.servedBy);
        return workers.size === 2 ? true : undefined;
      },
    );
  });

  afterAll(async () => {
    if (service !== undefined && service.child.exitCode === null) service.signal("SIGKILL");
    await database?.close();
    await server?.stop();
  });

  it("50 simultaneous binds for 5 seats: exactly 5 succeed, 45 hear the course is full, both workers serve", async () => {
    const courseId = await createTestCourse(database, { max_students: 5 });
    const answers = await Promise.all(
      studentIds.map((studentId) =>
        send(service.port, "POST", "/api/enroll/bind", { student_id: studentId, course_id: courseId }),
      ),
    );
    expect(tally(answers.map(outcomeOf))).toEqual({
      ok: 5,
      [`422 Course ${courseId} is full: 5 of 5 seats taken`]: 45,
    });
    expect(new Set(answers.map((answer) => answer!.servedBy))).toEqual(workers);
    expect(await storedEnrollments(database, courseId)).toBe(5);
  });

  it("20 simultaneous identical binds store one enrolment; the other 19 get 409", async () => {
    const courseId = await createTestCourse(database);
    const studentId = studentIds[0]!;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        send(service.port, "POST", "/api/enroll/bind", { student_id: studentId, course_id: courseId }),
      ),
    );
    expect(tally(answers.map(outcomeOf))).toEqual({
      ok: 1,
      [`409 Student ${studentId} is already enrolled in course ${courseId}`]: 19,
    });
    expect(await storedEnrollments(database, courseId)).toBe(1);
  });

  it("a bind served by one worker reaches a course's event stream held by the other (LISTEN/NOTIFY)", async () => {
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
      expect(outcomeOf(answer)).toBe("ok");
      servedBy.push(answer!.servedBy);
      expect(await enrolledNext()).toBe(index + 1);
      if (answer!.servedBy !== heldBy) break;
    }
    expect(servedBy.at(-1)).not.toBe(heldBy);
    expect(workers).toContain(heldBy);
    stream.close();
  });

  it("binds served by either worker reach a course-live WebSocket held by one of them (LISTEN/NOTIFY)", async () => {
    const courseId = await createTestCourse(database, { max_students: 50 });
    const socket = await openLive(service.port);
    socket.send(JSON.stringify({ type: "follow", course_id: courseId }));
    expect((await socket.next()).seats.enrolled).toBe(0);
    const servedBy = new Set<number>();
    for (const [index, studentId] of studentIds.entries()) {
      const answer = await send(service.port, "POST", "/api/enroll/bind", {
        student_id: studentId,
        course_id: courseId,
      });
      expect(outcomeOf(answer)).toBe("ok");
      servedBy.add(answer!.servedBy);
      // Each bind is told once, whichever worker served it.
      expect(await socket.next()).toEqual({
        type: "seats",
        seats: { course_id: courseId, enrolled: index + 1, max_students: 50, seats_left: 49 - index },
      });
      if (servedBy.size === 2) break;
    }
    expect(servedBy).toEqual(workers);
    socket.close();
  });

  it("replaces a worker killed with SIGKILL and keeps answering", async () => {
    const [victim, survivor] = [...workers];
    process.kill(victim!, "SIGKILL");
    // Node's round-robin primary hands each connection to a worker and waits for its reply: one
    // handed over in the instant the worker dies is never answered. So ask once the primary knows.
    const death = new RegExp(`worker \\d \\(pid ${victim}\\) exited by SIGKILL; replacing it`);
    await waitFor("the primary to see the worker die", () => death.test(service.output()) || undefined, {
      timeoutMs: 60_000,
      intervalMs: 20,
    });
    const replacement = await askUntil(
      "an answer from a new worker",
      () => get(service.port, "/api/enroll/student-list?size=1"),
      (answer) => {
        expect(JSON.parse(answer.body)).toMatchObject({ code: 0 });
        return answer.servedBy !== victim && answer.servedBy !== survivor ? answer.servedBy : undefined;
      },
    );
    expect(replacement).toBeGreaterThan(0);
  });

  it("stops both workers gracefully on SIGTERM to the primary and exits 0, sending 1001 to open WebSockets", async () => {
    const socket = await openLive(service.port);
    service.signal("SIGTERM");
    expect(await socket.closed).toBe(1001);
    expect(await service.exited).toBe(0);
    expect(service.output().match(/exited with code 0/g)).toHaveLength(2);
  });
});
