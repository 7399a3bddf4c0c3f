import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSqlitePath, openDatabase } from "../src/db/index.ts";
import { BusinessError, bindCourse, createCourse, createStudent, listStudents } from "../src/services.ts";
import { expectBusinessError } from "./support/expect-business-error.ts";
import { studentInput } from "./support/fixtures.ts";
import {
  postgresInstalled,
  startPrivatePostgres,
  startTestPostgres,
  type TestPostgres,
} from "./support/postgres.ts";
import { type DatabaseSource, databaseSource, dialects } from "./support/test-databases.ts";

describe.each(dialects)("a %s database", (dialect) => {
  let source: DatabaseSource;
  beforeAll(async () => {
    source = await databaseSource(dialect);
  });
  afterAll(async () => {
    await source.close();
  });

  it("is created and migrated on first open, and keeps its data when reopened", async () => {
    const url = await source.freshUrl();
    const first = await openDatabase(url);
    expect(first.dialect).toBe(dialect);
    const student = await createStudent(first, studentInput(1));
    const course = await createCourse(first, { name: "Databases", code: "CS340", is_active: false });
    await first.kysely
      .insertInto("enrollments")
      .values({ student_id: student.id, course_id: course.id, created_at: student.created_at })
      .execute();
    await first.close();

    const second = await openDatabase(url);
    try {
      expect(await listStudents(second, { page: 1, size: 10 })).toEqual([student]);
      await expectBusinessError(
        bindCourse(second, student.id, course.id),
        409,
        `Student ${student.id} is already enrolled in course ${course.id}`,
      );
      const [stored] = await second.kysely.selectFrom("courses").select("is_active").execute();
      expect(stored?.is_active).toBe(dialect === "postgres" ? false : 0);
    } finally {
      await second.close();
    }
  });
});

describe("the SQLite file", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "enrollment-file-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("defaults to apps/enrollment/data/enrollment.db", () => {
    expect(defaultSqlitePath).toBe(join(import.meta.dirname, "..", "data", "enrollment.db"));
  });

  it("gets its folder created, WAL journaling, a busy timeout and enforced foreign keys", async () => {
    const path = join(dir, "nested", "folder", "app.db");
    const database = await openDatabase(path);
    try {
      expect(existsSync(path)).toBe(true);
      const pragma = async (name: string) =>
        (await sql.raw(`pragma ${name}`).execute(database.kysely)).rows[0] as Record<string, unknown>;
      expect(await pragma("journal_mode")).toEqual({ journal_mode: "wal" });
      expect(await pragma("busy_timeout")).toEqual({ timeout: 5000 });
      expect(await pragma("foreign_keys")).toEqual({ foreign_keys: 1 });
    } finally {
      await database.close();
    }
  });
});

describe("PostgreSQL outages", () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startTestPostgres();
  });
  afterAll(async () => {
    await server.stop();
  });

  it("an unreachable server makes openDatabase reject with an internal error", async () => {
    // Nothing listens on port 1, so the connection is refused at once.
    const opening = openDatabase("postgres://postgres@127.0.0.1:1/enrollment");
    await expect(opening).rejects.toThrow(/ECONNREFUSED/);
    await expect(opening).rejects.not.toBeInstanceOf(BusinessError);
  });

  it("losing every connection neither crashes the process nor keeps the calls after it from working", async () => {
    const url = await server.createDatabase();
    const database = await openDatabase(url);
    try {
      // Several idle clients in the pool, then the server ends them all.
      await Promise.all([1, 2, 3].map(() => listStudents(database, { page: 1, size: 1 })));
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      await admin.end();

      // The pool learns of each lost client when its socket closes, a moment later on a busy
      // machine: a call in between may fail (as while the server is down, below); one soon works.
      const listed = () =>
        listStudents(database, { page: 1, size: 10 }).then(
          (students) => students,
          () => undefined,
        );
      await expect.poll(listed, { timeout: 15_000 }).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it("calls fail with an internal error while the server is down, and succeed once it is back", async (context) => {
    if (!postgresInstalled()) {
      context.skip("a private cluster (which this test stops) needs PostgreSQL's binaries");
    }
    // Our own cluster, whatever TEST_DATABASE_URL says: a shared server is not ours to stop.
    const ownServer = await startPrivatePostgres();
    const database = await openDatabase(await ownServer.createDatabase());
    try {
      await createStudent(database, studentInput(1));
      await ownServer.control.kill();

      const failing = listStudents(database, { page: 1, size: 10 });
      await expect(failing).rejects.toThrow();
      await expect(failing).rejects.not.toBeInstanceOf(BusinessError);

      await ownServer.control.start();
      const students = await listStudents(database, { page: 1, size: 10 });
      expect(students.map((student) => student.student_id)).toEqual(["S1"]);
    } finally {
      await database.close();
      await ownServer.stop();
    }
  });
});
