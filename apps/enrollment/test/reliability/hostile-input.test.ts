import fc from "fast-check";
import { contentType, jsonText, nastyText, percentEncoded, urlencoded, withInvalidUtf8 } from "hostile-input";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEnrollmentApp } from "../../src/app.ts";
import { type Database, type DialectName, openDatabase } from "../../src/db/index.ts";
import { TEST_ADMIN_TOKEN } from "../support/api.ts";
import { createStudents, createTestCourse } from "../support/fixtures.ts";
import { type DatabaseSource, databaseSource } from "../support/test-databases.ts";
import { expectDocumentedAnswer } from "./documented-answer.ts";

const prototypeNames = () => ({
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
});
const before = prototypeNames();

/** Ids that exist, that do not, and that no column can hold. */
const id = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 6 }), weight: 6 },
  {
    arbitrary: fc.constantFrom(0, -1, 2_147_483_647, 2_147_483_648, 4_294_967_296, Number.MAX_SAFE_INTEGER),
    weight: 2,
  },
  { arbitrary: fc.constantFrom(1.5, "1", null, true, [], {}), weight: 1 },
);
/** Text a database might choke on: NUL, lone surrogates, right-to-left marks, quotes, LIKE wildcards. */
const awkwardText = fc.oneof(
  { arbitrary: fc.string({ minLength: 1, maxLength: 30 }), weight: 1 },
  { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 20 }), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      "a\u0000b",
      "\ud800x",
      "\u202eevil",
      "'; drop table students; --",
      "%_\\",
      "名前",
      " padded ",
    ),
    weight: 2,
  },
);
const bindBody = fc.record({ student_id: id, course_id: id }, { requiredKeys: [] });
const studentBody = fc.record(
  {
    name: awkwardText,
    email: fc.oneof(fc.emailAddress(), awkwardText),
    age: fc.oneof(fc.integer({ min: 1, max: 150 }), fc.constantFrom(0, 151, 2_147_483_648, 1.5)),
    student_id: awkwardText,
  },
  { requiredKeys: [] },
);
const courseBody = fc.record(
  {
    name: awkwardText,
    code: awkwardText,
    description: fc.oneof(awkwardText, fc.constant("x".repeat(2001))),
    credits: fc.oneof(fc.integer({ min: 0, max: 60 }), fc.constantFrom(-1, 61, 2_147_483_648)),
    max_students: fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom(0, 100_001, 2_147_483_648)),
    is_active: fc.oneof(fc.boolean(), fc.constantFrom("true", 1, null)),
  },
  { requiredKeys: [] },
);
const jsonRoutes = {
  "/api/enroll/bind": bindBody,
  "/api/enroll/unbind": bindBody,
  "/api/enroll/student-create": studentBody,
  "/api/enroll/course-create": courseBody,
};
const jsonNames = ["student_id", "course_id", "name", "email", "age", "code", "description", "credits"];

describe.each([
  { dialect: "sqlite" as DialectName, numRuns: 80 },
  // One cheaper pass on PostgreSQL: its types are stricter than SQLite's (32-bit integers, no NUL).
  { dialect: "postgres" as DialectName, numRuns: 40 },
])("hostile input never hurts the enrollment service on $dialect", ({ dialect, numRuns }) => {
  let source: DatabaseSource;
  let database: Database;
  let server: RunningServer;
  const internalErrors: unknown[] = [];

  beforeAll(async () => {
    source = await databaseSource(dialect);
    database = await openDatabase(await source.freshUrl());
    await createStudents(database, 5);
    for (const maxStudents of [2, 3, 50]) await createTestCourse(database, { max_students: maxStudents });
    await createTestCourse(database, { is_active: false });
    const log = { error: (details: Record<string, unknown>) => void internalErrors.push(details.err) };
    server = await startServer(
      createEnrollmentApp(database, {
        settings: { LIMITS: { body_size: 64 * 1024 } },
        log,
        adminToken: TEST_ADMIN_TOKEN,
      }),
    );
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
    await source?.close();
  });

  /**
   * Sends one request as the administrator (so that bodies reach the write endpoints' validation),
   * bounded in time, and checks the answer against the documented schemas.
   */
  async function call(path: string, init: RequestInit = {}): Promise<number> {
    const headers = {
      ...(init.headers as Record<string, string>),
      authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
    };
    const response = await server.fetch(path, { ...init, headers, signal: AbortSignal.timeout(5_000) });
    const text = await response.text();
    return expectDocumentedAnswer(path.split("?")[0]!, response.status, text);
  }

  it("list endpoints: hostile query strings", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/api/enroll/student-list", "/api/enroll/course-list"),
        urlencoded(["page", "size", "search"]),
        async (path, query) => {
          await call(`${path}?${query}`);
        },
      ),
      { numRuns },
    );
  });

  it("JSON endpoints: hostile JSON text, invalid UTF-8 and content types", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(jsonRoutes)),
        withInvalidUtf8(jsonText(jsonNames)),
        contentType("application/json"),
        async (path, body, type) => {
          const headers: Record<string, string> = type === undefined ? {} : { "content-type": type };
          await call(path, { method: "POST", headers, body: new Uint8Array(body) });
        },
      ),
      { numRuns },
    );
  });

  it("JSON endpoints: well-formed bodies with edge values that reach the database", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          ...Object.entries(jsonRoutes).map(([path, body]) =>
            fc.tuple(fc.constant(path), body as fc.Arbitrary<unknown>),
          ),
        ),
        async ([path, body]) => {
          await call(path, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
        },
      ),
      { numRuns: numRuns * 2 },
    );
  });

  it("unknown paths and methods under /api/enroll", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"),
        fc.oneof(fc.constantFrom("bind", "student-list", "hello/x", ""), nastyText(["bind", "/", ".."], 4)),
        async (method, rest) => {
          // fetch resolves dot segments, as a browser would: the path the server sees is the normalised one.
          const path = new URL(`/api/enroll/${percentEncoded(rest)}`, server.url).pathname;
          const response = await server.fetch(path, { method, signal: AbortSignal.timeout(5_000) });
          const text = await response.text();
          if (!path.startsWith("/api/enroll")) {
            expect({ status: response.status, body: JSON.parse(text) }).toEqual({
              status: 404,
              body: { detail: `Not Found: ${path}` },
            });
            return;
          }
          if (path === "/api/enroll/hello" && method === "GET") {
            expect(text).toBe("Hello, World!");
            return;
          }
          const code = expectDocumentedAnswer(path, response.status, text);
          expect([0, 400, 404, 405, 413, 422]).toContain(code);
        },
      ),
      { numRuns },
    );
  });

  it("a body past the limit gets the 413 envelope", async () => {
    const code = await call("/api/enroll/bind", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ student_id: 1, course_id: 1, padding: "x".repeat(70_000) }),
    });
    expect(code).toBe(413);
  });

  it("no request reached the internal-error handler, no course is over capacity, prototypes are clean", async () => {
    expect(internalErrors).toEqual([]);
    const courses = await database.kysely.selectFrom("courses").select(["id", "max_students"]).execute();
    for (const course of courses) {
      const taken = await database.kysely
        .selectFrom("enrollments")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where("course_id", "=", course.id)
        .executeTakeFirstOrThrow();
      expect(Number(taken.count)).toBeLessThanOrEqual(course.max_students);
    }
    expect(prototypeNames()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
