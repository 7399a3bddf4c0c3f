// The service's generated client (src/client.generated.ts) against the running service: every
// operation, its success and its failure, and the file kept fresh by `unruffled client --check`.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { waitFor } from "process-support";
import { describe, expect, it } from "vitest";
import { type Client, createClient } from "../src/client.generated.ts";
import { TEST_ADMIN_TOKEN, useApi } from "./support/api.ts";
import { createStudents, createTestCourse } from "./support/fixtures.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CLI = join(ROOT, "packages/unruffled/src/cli.ts");

it("is the client the service generates now (unruffled client --check)", async () => {
  const outcome = await new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--conditions=source", CLI, "client", "src/server.ts", "--out", "src/client.generated.ts", "--check"],
      { cwd: join(ROOT, "apps/enrollment"), env: { ...process.env, DATABASE_URL: ":memory:" } },
      (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
  expect(outcome).toEqual({
    code: 0,
    stderr: `${join(ROOT, "apps/enrollment/src/client.generated.ts")} is up to date.\n`,
  });
});

describe("the generated client against the service", () => {
  const api = useApi("sqlite");
  const clients = async (): Promise<{ admin: Client; anonymous: Client }> => {
    const { url } = await api.http();
    return {
      admin: createClient({ baseUrl: url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }),
      anonymous: createClient({ baseUrl: url }),
    };
  };

  it("hello: the greeting as text; an aborted call is a network failure", async () => {
    const { anonymous } = await clients();
    expect(await anonymous.hello()).toMatchObject({
      kind: "documented",
      status: 200,
      contentType: "text/plain",
      body: "Hello, World!",
    });
    const aborted = await anonymous.hello({}, { signal: AbortSignal.abort() });
    expect(aborted).toMatchObject({ kind: "network-failure", aborted: true });
  });

  it("create_student: the stored student; without the token, the 401 envelope", async () => {
    const { admin, anonymous } = await clients();
    const student = { name: "Ada", email: "ada@example.edu", age: 20, student_id: "S1" };
    const created = await admin.create_student({ body: student });
    if (created.kind !== "documented") throw new Error(created.kind);
    expect(created.body).toMatchObject({
      code: 0,
      message: "Student 1 created",
      data: { id: 1, ...student },
    });
    expect(await anonymous.create_student({ body: { ...student, student_id: "S2" } })).toMatchObject({
      kind: "documented",
      status: 200,
      body: {
        code: 401,
        message: "Not authenticated: send the header Authorization: Bearer <token>",
        data: null,
      },
    });
  });

  it("create_course: the stored course with its defaults; a taken code, the 409 envelope", async () => {
    const { admin } = await clients();
    const created = await admin.create_course({ body: { name: "Logic", code: "L1" } });
    expect(created).toMatchObject({
      kind: "documented",
      status: 200,
      body: {
        code: 0,
        message: "Course 1 created",
        data: {
          id: 1,
          name: "Logic",
          code: "L1",
          description: "",
          credits: 3,
          max_students: 50,
          is_active: true,
        },
      },
    });
    const again = await admin.create_course({ body: { name: "Logic again", code: "L1" } });
    expect(again).toMatchObject({ kind: "documented", status: 200, body: { code: 409, data: null } });
  });

  it("list_students and list_courses: a page; a page out of range, the 422 envelope", async () => {
    await createStudents(api.db(), 3);
    await createTestCourse(api.db());
    const { anonymous } = await clients();
    const students = await anonymous.list_students({ page: 1, size: 2 });
    // Success and failure share the status 200 here: the envelope's data tells them apart.
    if (students.kind !== "documented" || !Array.isArray(students.body.data)) throw new Error("not a page");
    expect(students.body.data.map((student) => student.id)).toEqual([1, 2]);
    const courses = await anonymous.list_courses({ search: "" });
    expect(courses).toMatchObject({ kind: "documented", body: { code: 0, message: "success" } });
    const invalid = await anonymous.list_students({ page: 0 });
    expect(invalid).toMatchObject({
      kind: "documented",
      status: 200,
      body: {
        code: 422,
        message: "Request validation failed",
        data: { errors: [{ loc: ["query", "page"], type: "too_small" }] },
      },
    });
  });

  it("bind_course and unbind_course: the pair; an unknown student, the 404 envelope", async () => {
    const [studentId] = await createStudents(api.db(), 1);
    const courseId = await createTestCourse(api.db());
    const { anonymous } = await clients();
    const pair = { student_id: studentId!, course_id: courseId };
    expect(await anonymous.bind_course({ body: pair })).toMatchObject({
      kind: "documented",
      body: { code: 0, message: `Student ${studentId} enrolled in course ${courseId}`, data: pair },
    });
    expect(await anonymous.unbind_course({ body: pair })).toMatchObject({
      kind: "documented",
      body: { code: 0, message: `Student ${studentId} withdrawn from course ${courseId}`, data: pair },
    });
    expect(await anonymous.unbind_course({ body: pair })).toMatchObject({ body: { code: 409, data: null } });
    expect(await anonymous.bind_course({ body: { ...pair, student_id: 99 } })).toMatchObject({
      kind: "documented",
      status: 200,
      body: { code: 404, message: "Student 99 not found", data: null },
    });
  });

  it("course_events: typed seats until the signal ends the stream; an unknown course, the 404 envelope", async () => {
    const [studentId] = await createStudents(api.db(), 1);
    const courseId = await createTestCourse(api.db(), { max_students: 2 });
    const { anonymous } = await clients();
    const abort = new AbortController();
    const stream = await anonymous.course_events({ course_id: courseId }, { signal: abort.signal });
    if (stream.kind !== "documented" || stream.contentType !== "text/event-stream") {
      throw new Error(`not an event stream: ${stream.kind}`);
    }
    const seen: number[] = [];
    for await (const { data } of stream.events) {
      expect(data).toEqual({
        course_id: courseId,
        enrolled: seen.length,
        max_students: 2,
        seats_left: 2 - seen.length,
      });
      seen.push(data.enrolled);
      if (seen.length === 1)
        await anonymous.bind_course({ body: { student_id: studentId!, course_id: courseId } });
      else abort.abort();
    }
    expect(seen).toEqual([0, 1]);
    await waitFor("the stream to stop following", () =>
      api.db().seatChanges.followers() === 0 ? true : undefined,
    );
    expect(await anonymous.course_events({ course_id: 99 })).toMatchObject({
      kind: "documented",
      status: 200,
      contentType: "application/json",
      body: { code: 404, message: "Course 99 not found", data: null },
    });
  });
});
