import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, describeAdminToken } from "../src/admin-token.ts";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "enrollment-admin-token-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe("the admin token", () => {
  it("is ENROLL_ADMIN_TOKEN when it is set, on any database", async () => {
    const env = { ENROLL_ADMIN_TOKEN: "from-env" };
    expect(await adminToken(env, join(folder, "a", "enrollment.db"))).toEqual({
      token: "from-env",
      source: "environment",
    });
    expect(await adminToken(env, "postgres://db/app")).toEqual({ token: "from-env", source: "environment" });
  });

  it("on the embedded database, is made at the first start and kept beside it, readable by its owner only", async () => {
    const database = join(folder, "b", "enrollment.db");
    const first = await adminToken({}, database);
    expect(first).toEqual({
      token: expect.stringMatching(/^[\w-]{32}$/),
      source: "generated",
      file: join(folder, "b", "admin-token"),
    });
    expect((await readFile(first.file!, "utf8")).trim()).toBe(first.token);
    expect((await stat(first.file!)).mode & 0o777).toBe(0o600);
    expect(await adminToken({}, database)).toEqual({ ...first, source: "file" });
  });

  it("is one token for every worker of a first start", async () => {
    const database = join(folder, "c", "enrollment.db");
    const tokens = await Promise.all(Array.from({ length: 8 }, () => adminToken({}, database)));
    expect(new Set(tokens.map((result) => result.token)).size).toBe(1);
    expect(tokens.filter((result) => result.source === "generated")).toHaveLength(1);
  });

  it("is none on PostgreSQL without the variable", async () => {
    expect(await adminToken({}, "postgres://postgres@127.0.0.1:5432/app")).toEqual({
      token: undefined,
      source: "none",
    });
  });

  it("is shown in the start-up line only the once it is made", () => {
    expect(describeAdminToken({ token: "t0k", source: "generated", file: "/data/admin-token" })).toBe(
      "admin token t0k (made now, kept in /data/admin-token)",
    );
    expect(describeAdminToken({ token: "t0k", source: "file", file: "/data/admin-token" })).toBe(
      "admin token in /data/admin-token",
    );
    expect(describeAdminToken({ token: "t0k", source: "environment" })).toBe(
      "admin token from ENROLL_ADMIN_TOKEN",
    );
    expect(describeAdminToken({ token: undefined, source: "none" })).toBe(
      "student-create and course-create closed: set ENROLL_ADMIN_TOKEN",
    );
  });
});
