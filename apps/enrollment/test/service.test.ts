// The README's first command runs src/main.ts: this checks what it promises, on a real process.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "process-support";
import { afterAll, expect, it } from "vitest";
import { startService } from "./reliability/support/service-process.ts";

const folder = await mkdtemp(join(tmpdir(), "enrollment-service-"));
afterAll(() => rm(folder, { recursive: true, force: true }));
// The service inherits this process's environment: a CORS_ORIGINS set in the shell must not leak in.
delete process.env.CORS_ORIGINS;

/** The status of an answer and its CORS headers (and Vary), for one exact comparison. */
async function corsAnswer(port: number, method: string, path: string, headers: Record<string, string>) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers });
  await response.arrayBuffer();
  const picked: Record<string, string> = {};
  for (const [name, value] of response.headers) {
    if (name.startsWith("access-control-") || name === "vary") picked[name] = value;
  }
  return { status: response.status, headers: picked };
}

const JSON_POST_PREFLIGHT = {
  "access-control-request-method": "POST",
  "access-control-request-headers": "content-type",
};

it("serves the API and the documentation pages on its embedded database, and keeps the data across a restart", async () => {
  const databaseUrl = join(folder, "enrollment.db");
  const first = await startService({ databaseUrl, env: { ENROLL_ADMIN_TOKEN: "service-admin" } });
  const base = `http://127.0.0.1:${first.port}`;
  const created = await fetch(`${base}/api/enroll/student-create`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer service-admin" },
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

it("makes an admin token at its first start on the embedded database, prints it once, and accepts it", async () => {
  const databaseUrl = join(folder, "fresh", "enrollment.db");
  const first = await startService({ databaseUrl });
  // The start-up line and the first answer travel on different pipes: wait for the line.
  const line = await waitFor(
    "the start-up line",
    () => /admin token (\S+) \(made now, kept in (\S+)\)/.exec(first.output()) ?? undefined,
    { timeoutMs: 60_000 },
  );
  expect(line?.[2]).toBe(join(folder, "fresh", "admin-token"));
  const create = (port: number, token: string) =>
    fetch(`http://127.0.0.1:${port}/api/enroll/course-create`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: "Databases", code: "CS340" }),
    }).then((response) => response.json());
  expect(await create(first.port, line![1]!)).toMatchObject({ code: 0 });
  expect(await create(first.port, "guess")).toMatchObject({ code: 401 });
  first.signal("SIGTERM");
  expect(await first.exited).toBe(0);

  const second = await startService({ databaseUrl });
  await waitFor("the start-up line", () => (second.output().includes("admin token in") ? true : undefined), {
    timeoutMs: 60_000,
  });
  expect(second.output()).toContain(`admin token in ${join(folder, "fresh", "admin-token")}`);
  expect(second.output()).not.toContain(line![1]!);
  second.signal("SIGTERM");
  expect(await second.exited).toBe(0);
});

it("lets the pages of CORS_ORIGINS call it, with their preflights, and no other page", async () => {
  const service = await startService({
    databaseUrl: join(folder, "cors.db"),
    env: { CORS_ORIGINS: "https://a.example,https://b.example" },
  });
  try {
    for (const origin of ["https://a.example", "https://b.example"]) {
      expect(await corsAnswer(service.port, "GET", "/api/enroll/hello", { origin })).toEqual({
        status: 200,
        headers: {
          "access-control-allow-origin": origin,
          "access-control-expose-headers": "x-request-id",
          vary: "Origin",
        },
      });
      const preflight = { origin, ...JSON_POST_PREFLIGHT };
      expect(await corsAnswer(service.port, "OPTIONS", "/api/enroll/bind", preflight)).toEqual({
        status: 204,
        headers: {
          "access-control-allow-origin": origin,
          "access-control-allow-methods": "POST",
          "access-control-allow-headers": "content-type",
          "access-control-max-age": "600",
          vary: "Origin, Access-Control-Request-Headers",
        },
      });
    }
    const refused = { origin: "https://c.example" };
    expect(await corsAnswer(service.port, "GET", "/api/enroll/hello", refused)).toEqual({
      status: 200,
      headers: { vary: "Origin" },
    });
    // Refused in the service's envelope (HTTP 200, code 400); without Access-Control-Allow-Origin the
    // browser stops there all the same.
    expect(
      await corsAnswer(service.port, "OPTIONS", "/api/enroll/bind", { ...refused, ...JSON_POST_PREFLIGHT }),
    ).toEqual({ status: 200, headers: { vary: "Origin" } });
  } finally {
    service.signal("SIGTERM");
    await service.exited;
  }
});

it("sends no CORS header to any page without CORS_ORIGINS", async () => {
  const service = await startService({ databaseUrl: join(folder, "no-cors.db") });
  try {
    const page = { origin: "https://a.example" };
    expect(await corsAnswer(service.port, "GET", "/api/enroll/hello", page)).toEqual({
      status: 200,
      headers: {},
    });
    expect(
      await corsAnswer(service.port, "OPTIONS", "/api/enroll/bind", { ...page, ...JSON_POST_PREFLIGHT }),
    ).toEqual({ status: 200, headers: {} });
  } finally {
    service.signal("SIGTERM");
    await service.exited;
  }
});
