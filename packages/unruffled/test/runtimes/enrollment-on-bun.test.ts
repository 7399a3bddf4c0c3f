// The sample service on Bun, with the one command `npm run start:bun` runs (`unruffled serve` on
// Bun: Bun.serve, its WebSocket route on Bun's own WebSockets; its embedded
// SQLite through better-sqlite3, which Bun loads), checked from outside over HTTP as
// apps/enrollment/test/api.test.ts checks it in-process: the same paths, the same answers.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { endProcessGroups } from "process-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedApp, serveCommand, serveOn, startOn } from "./runtime-process.ts";

const service = fileURLToPath(new URL("../../../../apps/enrollment/src/server.ts", import.meta.url));
const ADMIN = "bun-admin";

describe("the enrollment service on Bun, on its embedded database", () => {
  let folder: string;
  let server: ServedApp;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text.startsWith("{") ? JSON.parse(text) : text };
  };
  const post = (path: string, body: unknown) => call("POST", path, body);
  const get = (path: string) => call("GET", path);

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "enrollment-bun-"));
    server = await serveOn("bun", service, {
      DATABASE_URL: join(folder, "enrollment.db"),
      ENROLL_ADMIN_TOKEN: ADMIN,
    });
  });
  afterAll(async () => {
    await endProcessGroups();
    await rm(folder, { recursive: true, force: true });
  });

  it("says hello in plain text", async () => {
    expect(await get("/api/enroll/hello")).toEqual({ status: 200, body: "Hello, World!" });
  });

  it("creates a student and a course, binds and unbinds them", async () => {
    const student = await post("/api/enroll/student-create", {
      name: "Ann Lee",
      email: "ann@example.edu",
      age: 20,
      student_id: "S1",
    });
    expect(student).toMatchObject({ status: 200, body: { code: 0, message: "Student 1 created" } });
    const course = await post("/api/enroll/course-create", { name: "Databases", code: "CS340" });
    expect(course).toMatchObject({
      status: 200,
      body: { code: 0, message: "Course 1 created", data: { credits: 3, max_students: 50, is_active: true } },
    });
    expect(await post("/api/enroll/bind", { student_id: 1, course_id: 1 })).toEqual({
      status: 200,
      body: { code: 0, message: "Student 1 enrolled in course 1", data: { student_id: 1, course_id: 1 } },
    });
    expect(await post("/api/enroll/bind", { student_id: 1, course_id: 1 })).toEqual({
      status: 200,
      body: { code: 409, message: "Student 1 is already enrolled in course 1", data: null },
    });
    expect(await post("/api/enroll/unbind", { student_id: 1, course_id: 1 })).toEqual({
      status: 200,
      body: { code: 0, message: "Student 1 withdrawn from course 1", data: { student_id: 1, course_id: 1 } },
    });
  });

  it("409 for a duplicate email, ignoring case, from the database's unique index", async () => {
    expect(
      await post("/api/enroll/student-create", {
        name: "Ann Again",
        email: "ANN@example.edu",
        age: 21,
        student_id: "S2",
      }),
    ).toEqual({
      status: 200,
      body: { code: 409, message: 'A student with email "ANN@example.edu" already exists', data: null },
    });
  });

  it("404 for an unknown student, and 422 in the service's envelope for invalid fields", async () => {
    expect(await post("/api/enroll/bind", { student_id: 9, course_id: 1 })).toEqual({
      status: 200,
      body: { code: 404, message: "Student 9 not found", data: null },
    });
    expect(await post("/api/enroll/bind", {})).toEqual({
      status: 200,
      body: {
        code: 422,
        message: "Request validation failed",
        data: {
          errors: [
            { loc: ["body", "student_id"], msg: "Field required", type: "missing", input: null },
            { loc: ["body", "course_id"], msg: "Field required", type: "missing", input: null },
          ],
        },
      },
    });
  });

  it("lists students, searching names ignoring case", async () => {
    const listed = await get("/api/enroll/student-list?name=ANN");
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((student: { name: string }) => student.name)).toEqual(["Ann Lee"]);
  });

  it("follows a course's seats on its course-live WebSocket, opened by Bun.serve itself", async () => {
    expect(server.output.combined).toMatch(/\(pid \d+, Bun [\d.]+\)\n/);
    const socket = new WebSocket(`${server.origin.replace("http", "ws")}/api/enroll/course-live`);
    const messages: unknown[] = [];
    const failed = new Promise<never>((_resolve, reject) =>
      socket.addEventListener("error", () => reject(new Error("the course-live socket failed to open"))),
    );
    const twoSeen = new Promise<void>((resolve) => {
      socket.addEventListener("message", (event) => {
        messages.push(JSON.parse(String(event.data)));
        if (messages.length === 1) void post("/api/enroll/bind", { student_id: 1, course_id: 1 });
        if (messages.length === 2) resolve();
      });
    });
    await Promise.race([new Promise((resolve) => socket.addEventListener("open", resolve)), failed]);
    socket.send(JSON.stringify({ type: "follow", course_id: 1 }));
    await twoSeen;
    socket.close(1000);
    expect(messages.map((message) => (message as { type: string }).type)).toEqual(["seats", "seats"]);
  });

  it("serves its documentation pages", async () => {
    for (const page of ["/openapi/docs", "/openapi/redoc"]) {
      const response = await fetch(server.origin + page);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    }
  });

  it("exits 0 on SIGTERM and keeps its data for the next start", async () => {
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    server = await serveOn("bun", service, {
      DATABASE_URL: join(folder, "enrollment.db"),
      ENROLL_ADMIN_TOKEN: ADMIN,
    });
    const listed = await get("/api/enroll/student-list");
    expect(listed.body.data.map((student: { student_id: string }) => student.student_id)).toEqual(["S1"]);
  });

  it("reads TRUSTED_PROXIES as npm start does: behind a trusted proxy, the access log names the client", async () => {
    const proxied = await startOn(
      "bun",
      serveCommand("bun", service, ["--log-level", "info"]),
      { DATABASE_URL: join(folder, "proxied.db"), ENROLL_ADMIN_TOKEN: ADMIN, TRUSTED_PROXIES: "loopback" },
      /on http:\/\/127\.0\.0\.1:(\d+) /,
    );
    await fetch(`${proxied.origin}/api/enroll/hello`, { headers: { "x-forwarded-for": "203.0.113.7" } });
    await expect
      .poll(() => proxied.output.stdout)
      .toMatch(/"path":"\/api\/enroll\/hello".*"client":"203\.0\.113\.7"/);
    proxied.child.kill("SIGTERM");
    expect(await proxied.exited).toBe(0);
  });
});
