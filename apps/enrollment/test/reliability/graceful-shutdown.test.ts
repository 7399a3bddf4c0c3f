import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/index.ts";
import { createStudents, createTestCourse } from "../support/fixtures.ts";
import { type DatabaseSource, databaseSource } from "../support/test-databases.ts";
import { type Answer, send, startService } from "./support/service-process.ts";

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A bind surely in flight: on a connection the server has already answered once (so it was
 * accepted), the head and the first bytes of the body are sent now, the rest only when asked.
 */
async function startSlowBind(port: number, studentId: number, courseId: number) {
  const body = JSON.stringify({ student_id: studentId, course_id: courseId });
  const socket: Socket = connect(port, "127.0.0.1");
  let received = "";
  let onData = () => {};
  socket.on("data", (chunk) => {
    received += chunk;
    onData();
  });
  socket.on("error", () => {});
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
  socket.write("GET /api/enroll/hello HTTP/1.1\r\nHost: x\r\n\r\n");
  await new Promise<void>((resolve) => {
    onData = () => {
      if (received.includes("Hello, World!")) resolve();
    };
  });
  received = "";
  socket.write(
    `POST /api/enroll/bind HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  );
  return { finish: () => socket.write(body.slice(5)), closed };
}

function envelopeOf(answer: Answer | undefined): { code: number } | undefined {
  return answer === undefined ? undefined : (JSON.parse(answer.body) as { code: number });
}

describe("graceful shutdown of the service process", () => {
  let source: DatabaseSource;
  beforeAll(async () => {
    source = await databaseSource("sqlite");
  });
  afterAll(async () => {
    await source.close();
  });

  it("on SIGTERM finishes the binds in flight, stores exactly those answered with code 0, and exits 0", async () => {
    const url = await source.freshUrl();
    const setup = await openDatabase(url);
    const studentIds = await createStudents(setup, 40);
    const courseId = await createTestCourse(setup, { max_students: 1_000 });
    await setup.close();
    const service = await startService({ databaseUrl: url });

    const [slowStudent, ...burstStudents] = studentIds;
    const slow = await startSlowBind(service.port, slowStudent!, courseId);
    await delay(200);
    // A burst spread over time, with the signal in the middle of it.
    const burst = burstStudents.map((studentId, index) =>
      delay(index * 4).then(() =>
        send(service.port, "POST", "/api/enroll/bind", { student_id: studentId, course_id: courseId }),
      ),
    );
    await delay(60);
    service.signal("SIGTERM");
    await delay(300);
    slow.finish();

    const slowAnswer = await slow.closed;
    expect(slowAnswer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(slowAnswer.toLowerCase()).toContain("connection: close");
    expect(slowAnswer).toContain(`"code":0`);
    const answers = await Promise.all(burst);
    expect(await service.exited).toBe(0);
    expect(service.output()).toContain("SIGTERM: finishing requests in flight, then exiting");

    const boundByAnswer = [slowStudent!];
    answers.forEach((answer, index) => {
      const envelope = envelopeOf(answer);
      // Every answer that came is a success: a refused connection (after the signal) is no answer.
      if (envelope !== undefined) {
        expect(envelope.code).toBe(0);
        boundByAnswer.push(burstStudents[index]!);
      }
    });
    const check = await openDatabase(url);
    try {
      const stored = await check.kysely
        .selectFrom("enrollments")
        .select("student_id")
        .where("course_id", "=", courseId)
        .orderBy("student_id")
        .execute();
      expect(stored.map((row) => row.student_id)).toEqual(boundByAnswer.sort((a, b) => a - b));
    } finally {
      await check.close();
    }
  });

  it("cuts a client that never finishes once SHUTDOWN_TIMEOUT_MS passed, and still exits 0", async () => {
    const url = await source.freshUrl();
    const service = await startService({ databaseUrl: url, env: { SHUTDOWN_TIMEOUT_MS: "500" } });
    const stuck = await startSlowBind(service.port, 1, 1);
    await delay(200);
    const signalled = performance.now();
    service.signal("SIGTERM");
    expect(await service.exited).toBe(0);
    const elapsed = performance.now() - signalled;
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(5_000);
    // The first answer (hello) came before the signal; nothing came for the bind that never finished.
    expect(await stuck.closed).toBe("");
  });
});
