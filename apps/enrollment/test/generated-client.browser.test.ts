// The generated client in Chromium: a page on another origin bundles it, binds a student through
// the service (CORS on for that origin) and reads the course's seats from its event stream, and
// from the course-live WebSocket.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";
import { startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { launchChromium, noChromium } from "../../../packages/unruffled/test/support/chromium.ts";
import { createEnrollmentApp } from "../src/app.ts";
import { createStudents, createTestCourse } from "./support/fixtures.ts";
import { useFreshDatabase } from "./support/test-databases.ts";

// Chromium is slow on a busy machine: a page gets minutes, never a race against the clock.
vi.setConfig({ testTimeout: 180_000 });

const GENERATED_CLIENT = fileURLToPath(new URL("../src/client.generated.ts", import.meta.url));

/** The page's script: what a browser app would write with the generated client. */
const PAGE_SCRIPT = `import { createClient } from ${JSON.stringify(GENERATED_CLIENT)};

window.enrol = async (baseUrl, studentId, courseId) => {
  const client = createClient({ baseUrl });
  const abort = new AbortController();
  const stream = await client.course_events({ course_id: courseId }, { signal: abort.signal });
  if (stream.kind !== "documented" || stream.contentType !== "text/event-stream") return { failed: stream.kind };
  const seats = [];
  let bound;
  for await (const event of stream.events) {
    seats.push(event.data);
    if (seats.length === 1) bound = await client.bind_course({ body: { student_id: studentId, course_id: courseId } });
    else abort.abort();
  }
  return { bound: { kind: bound.kind, status: bound.status, body: bound.body }, seats };
};

window.live = async (baseUrl, studentId, courseId, headers) => {
  const client = createClient({ baseUrl });
  const opened = await client.course_live(undefined, headers === undefined ? undefined : { headers });
  if (!opened.ok) return { failed: opened.close.code };
  const socket = opened.socket;
  socket.send({ type: "follow", course_id: courseId });
  const messages = [];
  for await (const message of socket) {
    messages.push(message);
    if (messages.length === 1) await client.bind_course({ body: { student_id: studentId, course_id: courseId } });
    else socket.close(1000);
  }
  return { messages, closed: await socket.closed };
};
`;

describe.skipIf(noChromium)("the generated client in Chromium", () => {
  const db = useFreshDatabase("sqlite");
  let folder: string;
  let bundle: string;
  let page: Server;
  let pageOrigin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "enrollment-browser-client-"));
    await writeFile(join(folder, "page.ts"), PAGE_SCRIPT);
    const output = await build({
      input: join(folder, "page.ts"),
      platform: "browser",
      resolve: { conditionNames: ["source", "browser", "import", "default"] },
      write: false,
      output: { format: "esm" },
    });
    bundle = output.output[0].code;
    page = createServer((request, response) => {
      if (request.url === "/page.js") {
        response.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
      } else {
        response
          .writeHead(200, { "content-type": "text/html" })
          .end('<!doctype html><title>Enrol</title><script type="module" src="/page.js"></script>');
      }
    });
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    browser = await launchChromium();
    // Nothing leaves the machine.
    await browser.context.route("**/*", (route) =>
      new URL(route.request().url()).hostname === "127.0.0.1" ? route.continue() : route.abort(),
    );
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => page?.close(resolve));
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it("bundles without any server code", () => {
    expect(bundle).not.toMatch(/node:|zod|createApp/);
  });

  /**
   * Serves the app to the page's origin (or to `origins`), opens the page in a new tab and runs its
   * function `name` with the service's URL and `args`: what it returned, and the page's errors.
   */
  async function onPage(name: "enrol" | "live", args: readonly unknown[], origins = [pageOrigin]) {
    const service = await startServer(createEnrollmentApp(db(), { corsOrigins: origins }));
    try {
      const tab = await browser.context.newPage();
      const errors: string[] = [];
      tab.on("pageerror", (error) => errors.push(error.message));
      await tab.goto(pageOrigin);
      await tab.waitForFunction((fn) => fn in globalThis, name);
      const result = await tab.evaluate(
        ([fn, url, rest]) =>
          (globalThis as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[fn]!(
            url,
            ...rest,
          ),
        [name, service.url, args] as const,
      );
      return { result, errors };
    } finally {
      await service.close();
    }
  }

  /** The course-live messages of a course of two seats, `enrolled` taken. */
  const liveSeats = (courseId: number, enrolled: number) => ({
    type: "seats",
    seats: { course_id: courseId, enrolled, max_students: 2, seats_left: 2 - enrolled },
  });

  it("binds a student from another origin and reads the course's seats as events", async () => {
    const [studentId] = await createStudents(db(), 1);
    const courseId = await createTestCourse(db(), { max_students: 4 });
    const { result, errors } = await onPage("enrol", [studentId, courseId]);
    const seats = (enrolled: number) => ({
      course_id: courseId,
      enrolled,
      max_students: 4,
      seats_left: 4 - enrolled,
    });
    expect(result).toEqual({
      bound: {
        kind: "documented",
        status: 200,
        body: {
          code: 0,
          message: `Student ${studentId} enrolled in course ${courseId}`,
          data: { student_id: studentId, course_id: courseId },
        },
      },
      seats: [seats(0), seats(1)],
    });
    expect(errors).toEqual([]);
  });

  it("follows a course's seats on the course-live WebSocket from another origin", async () => {
    const [studentId] = await createStudents(db(), 1);
    const courseId = await createTestCourse(db(), { max_students: 2 });
    const { result, errors } = await onPage("live", [studentId, courseId]);
    expect(result).toEqual({
      messages: [liveSeats(courseId, 0), liveSeats(courseId, 1)],
      closed: { code: 1000, reason: "", wasClean: true },
    });
    expect(errors).toEqual([]);
  });

  it("opens the socket when headers are given, which a browser cannot send: they are left out, not an error", async () => {
    const [studentId] = await createStudents(db(), 1);
    const courseId = await createTestCourse(db(), { max_students: 2 });
    const { result, errors } = await onPage("live", [studentId, courseId, { "x-trace": "page-1" }]);
    expect(result).toEqual({
      messages: [liveSeats(courseId, 0), liveSeats(courseId, 1)],
      closed: { code: 1000, reason: "", wasClean: true },
    });
    expect(errors).toEqual([]);
  });

  it("is refused to a page on an origin the app does not allow (cross-site WebSocket hijacking)", async () => {
    const { result } = await onPage("live", [1, 1], ["http://elsewhere.example"]);
    // A browser learns nothing of the refusal (a 403) but that the socket never opened: 1006.
    expect(result).toEqual({ failed: 1006 });
  });
});
