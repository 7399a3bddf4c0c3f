// The README's first command runs src/main.ts: this checks what it promises, on a real process.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { startService } from "./reliability/support/service-process.ts";

const folder = await mkdtemp(join(tmpdir(), "enrollment-service-"));
afterAll(() => rm(folder, { recursive: true, force: true }));

it("serves the API and the documentation pages on its embedded database, and keeps the data across a restart", async () => {
  const databaseUrl = join(folder, "enrollment.db");
  const first = await startService({ databaseUrl });
  const base = `http://127.0.0.1:${first.port}`;
  const created = await fetch(`${base}/api/enroll/student-create`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Ann Lee", email: "ann@example.edu", age: 20, student_id: "S1" }),
  });
  expect(await created.json()).toMatchObject({ code: 0, message: "Student 1 created" });
  for (const page of ["/openapi/docs", "/openapi/redoc"]) {
    const response = await fetch(base + page);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  }
  const document = (await (await fetch(`${base}/openapi/openapi.json`)).json()) as { paths: object };
  expect(Object.keys(document.paths)).toEqual([
    "/api/enroll/hello",
    "/api/enroll/student-list",
    "/api/enroll/course-list",
    "/api/enroll/bind",
    "/api/enroll/unbind",
    "/api/enroll/student-create",
    "/api/enroll/course-create",
    "/api/enroll/course-events",
  ]);
  first.signal("SIGTERM");
  expect(await first.exited).toBe(0);

  const second = await startService({ databaseUrl });
  const listed = await fetch(`http://127.0.0.1:${second.port}/api/enroll/student-list`);
  expect(await listed.json()).toMatchObject({
    code: 0,
    data: [{ id: 1, name: "Ann Lee", student_id: "S1" }],
  });
  second.signal("SIGTERM");
  expect(await second.exited).toBe(0);
});
