// The admin bearer token of the write endpoints outside the seed, the paging dependency of both
// lists, and the database dependency that tests override.
import { dependency } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { createEnrollmentApp } from "../src/app.ts";
import { database, paging } from "../src/dependencies.ts";
import { createStudent, listStudents } from "../src/endpoints.ts";
import { studentInput } from "./support/fixtures.ts";
import { useFreshDatabase } from "./support/test-databases.ts";

const TOKEN = "the-admin-token";
const course = { name: "Databases", code: "CS340" };

describe("the write endpoints outside the seed", () => {
  const db = useFreshDatabase("sqlite");
  const app = () => createEnrollmentApp(db(), { adminToken: TOKEN });

  it.each(["/api/enroll/student-create", "/api/enroll/course-create"])(
    "%s without a token: the envelope with code 401, HTTP 200 and WWW-Authenticate",
    async (path) => {
      const response = await testClient(app()).post(path, { json: course });
      expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
        200,
        "Bearer",
        {
          code: 401,
          message: "Not authenticated: send the header Authorization: Bearer <token>",
          data: null,
        },
      ]);
    },
  );

  it("a wrong token: code 401, never echoed; nothing is stored", async () => {
    const response = await testClient(app(), { headers: { authorization: "Bearer guessed-token" } }).post(
      "/api/enroll/student-create",
      { json: studentInput(1) },
    );
    expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
      200,
      'Bearer error="invalid_token"',
      { code: 401, message: "Invalid bearer token", data: null },
    ]);
    expect(response.text).not.toContain("guessed-token");
    expect(await db().kysely.selectFrom("students").selectAll().execute()).toEqual([]);
  });

  it("credentials of another scheme: code 401 naming the bearer scheme, never echoed; nothing is stored", async () => {
    const response = await testClient(app(), { headers: { authorization: "Basic YWRtaW46c2VjcmV0" } }).post(
      "/api/enroll/student-create",
      { json: studentInput(1) },
    );
    expect([response.status, response.headers.get("www-authenticate"), response.json()]).toEqual([
      200,
      "Bearer",
      { code: 401, message: "Not authenticated: the Authorization header is not a bearer token", data: null },
    ]);
    expect(response.text).not.toContain("YWRtaW46c2VjcmV0");
    expect(await db().kysely.selectFrom("students").selectAll().execute()).toEqual([]);
  });

  it("the admin token opens them", async () => {
    const admin = testClient(app(), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect((await admin.post("/api/enroll/course-create", { json: course })).json()).toMatchObject({
      code: 0,
    });
  });

  it("without a token configured they are closed to every request", async () => {
    const closed = createEnrollmentApp(db());
    const response = await testClient(closed, { headers: { authorization: "Bearer anything" } }).post(
      "/api/enroll/course-create",
      { json: course },
    );
    expect(response.json()).toEqual({ code: 401, message: "Invalid bearer token", data: null });
  });

  it("the seed's endpoints stay open", async () => {
    const client = testClient(app());
    expect((await client.get("/api/enroll/hello")).text).toBe("Hello, World!");
    expect((await client.get("/api/enroll/student-list")).json()).toMatchObject({ code: 0 });
    expect((await client.get("/api/enroll/course-list")).json()).toMatchObject({ code: 0 });
    expect(
      (await client.post("/api/enroll/bind", { json: { student_id: 1, course_id: 1 } })).json(),
    ).toMatchObject({
      code: 404,
    });
  });

  it("are documented with the scheme; the seed's endpoints without one", () => {
    const document = app().openapi();
    expect(document.components?.securitySchemes).toEqual({
      adminToken: {
        type: "http",
        scheme: "bearer",
        description:
          "The admin token: ENROLL_ADMIN_TOKEN, or the one the service printed at its first start.",
      },
    });
    const secured = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.values(item).map((operation) => [path, operation!.security] as const),
    );
    expect(secured).toEqual([
      ["/api/enroll/hello", undefined],
      ["/api/enroll/student-list", undefined],
      ["/api/enroll/course-list", undefined],
      ["/api/enroll/bind", undefined],
      ["/api/enroll/unbind", undefined],
      ["/api/enroll/student-create", [{ adminToken: [] }]],
      ["/api/enroll/course-create", [{ adminToken: [] }]],
      ["/api/enroll/course-events", undefined],
    ]);
  });
});

describe("the lists' paging dependency", () => {
  const db = useFreshDatabase("sqlite");

  it.each(["student-list", "course-list"])(
    "%s documents page and size exactly as the seed defines them, before search",
    (list) => {
      const operation = createEnrollmentApp(db()).openapi().paths[`/api/enroll/${list}`]!.get!;
      expect(operation.parameters).toEqual([
        {
          name: "page",
          in: "query",
          required: false,
          description: "Page number, from 1",
          schema: {
            type: "integer",
            minimum: 1,
            maximum: 9007199254740991,
            default: 1,
            description: "Page number, from 1",
          },
        },
        {
          name: "size",
          in: "query",
          required: false,
          description: "Items per page",
          schema: { type: "integer", minimum: 1, maximum: 100, default: 10, description: "Items per page" },
        },
        {
          name: "search",
          in: "query",
          required: false,
          description: "Keep names that contain this, ignoring case",
          schema: {
            type: "string",
            maxLength: 100,
            description: "Keep names that contain this, ignoring case",
          },
        },
      ]);
    },
  );

  it("is the one dependency of both lists, and a test may replace it", async () => {
    for (let n = 1; n <= 3; n++) await createStudentDirectly(n);
    const client = testClient(createEnrollmentApp(db()), {
      overrides: [[paging, dependency({ resolve: () => ({ page: 2, size: 1 }) })]],
    });
    expect((await client.call(listStudents, {})).json().data.map((student) => student.id)).toEqual([2]);
  });

  async function createStudentDirectly(n: number) {
    await testClient(createEnrollmentApp(db(), { adminToken: TOKEN }), {
      headers: { authorization: `Bearer ${TOKEN}` },
    }).call(createStudent, { body: studentInput(n) });
  }
});

describe("the database dependency", () => {
  const first = useFreshDatabase("sqlite");
  const second = useFreshDatabase("sqlite");

  it("can be overridden, so a test hands the endpoints another database", async () => {
    const admin = (app = createEnrollmentApp(first(), { adminToken: TOKEN })) =>
      testClient(app, {
        headers: { authorization: `Bearer ${TOKEN}` },
        overrides: [[database, dependency({ resolve: () => second() })]],
      });
    await admin().call(createStudent, { body: studentInput(1) });
    expect(await second().kysely.selectFrom("students").select("id").execute()).toEqual([{ id: 1 }]);
    expect(await first().kysely.selectFrom("students").select("id").execute()).toEqual([]);
  });
});
