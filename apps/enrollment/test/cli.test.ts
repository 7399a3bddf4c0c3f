import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { captureOutput, endProcessGroups, freePort, runToEnd, spawnGroup } from "process-support";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// The service through the `unruffled` command, as a developer starts it: a child process.
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CLI = join(ROOT, "packages/unruffled/src/cli.ts");
const SERVER_MODULE = "apps/enrollment/src/server.ts";

// A process start gets 60 s on a busy machine; a test that fails or times out ends its processes.
vi.setConfig({ testTimeout: 120_000 });
afterEach(endProcessGroups);

let folder: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "enrollment-cli-"));
  env = { ...process.env, DATABASE_URL: join(folder, "cli.db") };
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("the enrollment service through the unruffled command", () => {
  it("lists its routes", async () => {
    const { stdout } = await runToEnd(
      process.execPath,
      ["--conditions=source", CLI, "routes", SERVER_MODULE],
      {
        cwd: ROOT,
        env,
      },
    );
    expect(stdout).toBe(
      [
        "METHOD  PATH                        NAME            PARAMETERS",
        "GET     /api/enroll/hello           hello           -",
        "GET     /api/enroll/student-list    list_students   query: page, size, search",
        "GET     /api/enroll/course-list     list_courses    query: page, size, search",
        "POST    /api/enroll/bind            bind_course     json: student_id, course_id",
        "POST    /api/enroll/unbind          unbind_course   json: student_id, course_id",
        "POST    /api/enroll/student-create  create_student  json: name, email, age, student_id",
        "POST    /api/enroll/course-create   create_course   json: name, code, description, credits, max_students, is_active",
        "GET     /api/enroll/course-events   course_events   query: course_id; header: last-event-id",
        "WS      /api/enroll/course-live     course_live     -",
        "",
      ].join("\n"),
    );
  });

  it("serves it with the access log, and stops on SIGTERM", async () => {
    const child: ChildProcess = spawnGroup(
      process.execPath,
      ["--conditions=source", CLI, "serve", SERVER_MODULE, "--port", "0", "--log-level", "info"],
      { cwd: ROOT, env, stdio: "pipe" },
    );
    const output = captureOutput(child);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      const deadline = Date.now() + 60_000;
      let url: string | undefined;
      while (url === undefined && Date.now() < deadline) {
        url = /on (http:\/\/[\d.:]+)/.exec(output.stderr)?.[1];
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const response = await fetch(`${url}/api/enroll/student-list?page=1`, {
        headers: { "x-request-id": "enrollment-cli" },
      });
      expect(await response.json()).toEqual({ code: 0, message: "success", data: [] });
      while (!output.stdout.includes("request completed") && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(JSON.parse(output.stdout)).toMatchObject({
        reqId: "enrollment-cli",
        method: "GET",
        path: "/api/enroll/student-list",
        status: 200,
        msg: "request completed",
      });
      // A failure is HTTP 200 in its envelope: the record has the envelope's code beside the status.
      await fetch(`${url}/api/enroll/bind`, { headers: { "x-request-id": "enrollment-405" } });
      while (!output.stdout.includes("enrollment-405") && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const [, failure] = output.stdout.trim().split("\n");
      expect(JSON.parse(failure!)).toMatchObject({
        reqId: "enrollment-405",
        path: "/api/enroll/bind",
        status: 200,
        code: 405,
        msg: "request completed",
      });
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });

  it.each([[[]], [["--workers", "2"]]])(
    "stops in one line, exit code 1, when its database refuses it at start (%j)",
    async (workers) => {
      const closed = await freePort();
      const outcome = await runToEnd(
        process.execPath,
        ["--conditions=source", CLI, "serve", SERVER_MODULE, "--port", "0", ...workers],
        { cwd: ROOT, env: { ...env, DATABASE_URL: `postgres://enrollment:secret@127.0.0.1:${closed}/app` } },
      );
      expect(outcome).toEqual({
        code: 1,
        stdout: "",
        stderr: `unruffled serve: onStartup failed (connectDatabase): connect ECONNREFUSED 127.0.0.1:${closed}\n`,
      });
    },
  );
});
