// The enrollment service as a browser page on another origin calls it (CORS), compressed answers,
// and its database: opened when the app starts, closed when it closes.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { freePort } from "process-support";
import { StartupError } from "unruffled";
import { startServer, testClient } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEnrollmentApp } from "../src/app.ts";
import { databaseFailure } from "../src/start-up-failure.ts";
import { TEST_ADMIN_TOKEN } from "./support/api.ts";
import { useFreshDatabase } from "./support/test-databases.ts";

const PAGE = "https://enrol.example.edu";

describe("the enrollment API in a browser", () => {
  const db = useFreshDatabase("sqlite");

  it("answers a page on an origin of CORS_ORIGINS, and the preflight of a JSON POST", async () => {
    const client = testClient(createEnrollmentApp(db(), { corsOrigins: [PAGE] }));
    const preflight = await client.request("OPTIONS", "/api/enroll/bind", {
      headers: {
        origin: PAGE,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect([preflight.status, preflight.headers.get("access-control-allow-origin")]).toEqual([204, PAGE]);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST");
    const list = await client.get("/api/enroll/student-list", { headers: { origin: PAGE } });
    expect([list.json(), list.headers.get("access-control-allow-origin")]).toEqual([
      { code: 0, message: "success", data: [] },
      PAGE,
    ]);
    expect(list.headers.get("access-control-expose-headers")).toBe("x-request-id");
  });

  it('CORS_ORIGINS "*": any page calls it, preflight included', async () => {
    const client = testClient(createEnrollmentApp(db(), { corsOrigins: "*" }));
    const page = "https://any-page.example.org";
    const preflight = await client.request("OPTIONS", "/api/enroll/bind", {
      headers: {
        origin: page,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect([
      preflight.status,
      preflight.headers.get("access-control-allow-origin"),
      preflight.headers.get("access-control-allow-methods"),
    ]).toEqual([204, "*", "POST"]);
    const list = await client.get("/api/enroll/course-list", { headers: { origin: page } });
    expect([list.json(), list.headers.get("access-control-allow-origin")]).toEqual([
      { code: 0, message: "success", data: [] },
      "*",
    ]);
  });

  it("allows no origin by default", async () => {
    const client = testClient(createEnrollmentApp(db()));
    const list = await client.get("/api/enroll/student-list", { headers: { origin: PAGE } });
    expect([list.status, list.headers.get("access-control-allow-origin")]).toEqual([200, null]);
  });

  it("compresses a page of students for a client that accepts gzip", async () => {
    const client = testClient(createEnrollmentApp(db(), { adminToken: TEST_ADMIN_TOKEN }), {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    for (let n = 1; n <= 10; n++) {
      await client.post("/api/enroll/student-create", {
        json: { name: `Student ${n}`, email: `s${n}@example.edu`, age: 20, student_id: `S${n}` },
      });
    }
    const plain = await client.get("/api/enroll/student-list");
    const compressed = await client.get("/api/enroll/student-list", {
      headers: { "accept-encoding": "gzip" },
    });
    expect([compressed.headers.get("content-encoding"), compressed.headers.get("vary")]).toEqual([
      "gzip",
      "Accept-Encoding",
    ]);
    expect(gunzipSync(compressed.body).toString()).toBe(plain.text);
  });
});

describe("the enrollment API's database", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "enrollment-lifecycle-"));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("is opened when the app starts and closed when it closes", async () => {
    const app = createEnrollmentApp(join(folder, "lifecycle.db"));
    const server = await startServer(app);
    const answer = await server.fetch("/api/enroll/student-list");
    expect(await answer.json()).toEqual({ code: 0, message: "success", data: [] });
    await server.close();
    // Started again, the app opens it again.
    const again = await startServer(app);
    expect((await again.fetch("/api/enroll/student-list")).status).toBe(200);
    await again.close();
  });

  it("stops the start when it is out of reach: listen() rejects, and the service's line names it", async () => {
    const port = await freePort();
    const url = `postgres://enrollment:secret@127.0.0.1:${port}/app`;
    const failure = await createEnrollmentApp(url)
      .listen({ port: 0 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StartupError);
    expect(databaseFailure(failure, url)).toBe(
      `Cannot open the database postgres://enrollment@127.0.0.1:${port}/app: connect ECONNREFUSED 127.0.0.1:${port}; check DATABASE_URL.`,
    );
  });
});
