import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { endProcessGroups, runToEnd } from "process-support";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/index.ts";
import { loadDemoData } from "../src/demo-data.ts";
import { bindCourse, createStudent, listCourses, listStudents } from "../src/services.ts";
import { expectBusinessError } from "./support/expect-business-error.ts";
import { studentInput } from "./support/fixtures.ts";
import { dialects, useFreshDatabase } from "./support/test-databases.ts";

describe.each(dialects)("the demo data on %s", (dialect) => {
  const db = useFreshDatabase(dialect);

  it("loads 30 students, 8 courses and 71 enrolments, and adds nothing the second time", async () => {
    expect(await loadDemoData(db())).toEqual({ students: 30, courses: 8, enrollments: 71 });
    expect(await loadDemoData(db())).toEqual({ students: 0, courses: 0, enrollments: 0 });

    const students = await listStudents(db(), { page: 1, size: 100 });
    expect(students).toHaveLength(30);
    expect(students[2]).toMatchObject({
      name: "Chloé Martin",
      email: "chloe.martin@example.edu",
      student_id: "S2025003",
    });
    const courses = await listCourses(db(), { page: 1, size: 100 });
    expect(courses.map((course) => [course.code, course.max_students, course.is_active])).toEqual([
      ["CS101", 40, true],
      ["CS201", 30, true],
      ["CS340", 25, true],
      ["MATH150", 50, true],
      ["MATH220", 35, true],
      ["PHYS101", 40, true],
      ["HIST210", 4, true],
      ["ART105", 15, false],
    ]);
  });

  it("has a full course and an inactive one to try the 422 answers on", async () => {
    await loadDemoData(db());
    const newcomer = await createStudent(db(), studentInput(99));
    await expectBusinessError(bindCourse(db(), newcomer.id, 7), 422, "Course 7 is full: 4 of 4 seats taken");
    await expectBusinessError(bindCourse(db(), newcomer.id, 8), 422, "Course 8 is not active");
  });
});

// The spec: "A demo data set can be loaded with one command" (the README's `npm run demo -w apps/enrollment`).
describe("npm run demo -w apps/enrollment", () => {
  const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
  // npm runs on the Node that runs the tests, without the npm_* variables of an enclosing `npm test`.
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")),
  );
  env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH}`;
  env.npm_config_update_notifier = "false";
  afterEach(endProcessGroups);

  it("loads the demo data into DATABASE_URL in one command, says so, and adds nothing the second time", {
    timeout: 120_000,
  }, async () => {
    const folder = await mkdtemp(join(tmpdir(), "enrollment-demo-"));
    try {
      const file = join(folder, "demo.db");
      const demo = () =>
        runToEnd("npm", ["run", "demo", "-w", "apps/enrollment", "--silent"], {
          cwd: ROOT,
          env: { ...env, DATABASE_URL: file },
        });
      expect(await demo()).toMatchObject({
        code: 0,
        stdout: `Demo data in ${file}: added 30 students, 8 courses, 71 enrolments.\n`,
      });
      expect(await demo()).toMatchObject({
        code: 0,
        stdout: `Demo data in ${file}: added 0 students, 0 courses, 0 enrolments.\n`,
      });
      const database = await openDatabase(file);
      try {
        const count = async (table: "students" | "courses" | "enrollments") =>
          Number(
            (
              await database.kysely
                .selectFrom(table)
                .select((eb) => eb.fn.countAll<number | string>().as("count"))
                .executeTakeFirstOrThrow()
            ).count,
          );
        expect([await count("students"), await count("courses"), await count("enrollments")]).toEqual([
          30, 8, 71,
        ]);
      } finally {
        await database.close();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
