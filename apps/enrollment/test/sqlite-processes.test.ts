import { type ChildProcess, fork } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../src/db/index.ts";
import type { Pair } from "./support/bind-worker.ts";
import { createStudents, createTestCourse, storedEnrollments } from "./support/fixtures.ts";
import { tally } from "./support/outcomes.ts";
import { type DatabaseSource, databaseSource } from "./support/test-databases.ts";

const workerScript = join(import.meta.dirname, "support", "bind-worker.ts");
const processCount = 4;

// Inside one process Kysely serialises SQLite work; these races need separate processes.
describe("binds from several processes sharing one SQLite file", () => {
  let source: DatabaseSource;
  let path: string;
  let database: Database;

  beforeAll(async () => {
    source = await databaseSource("sqlite");
    path = await source.freshUrl();
    database = await openDatabase(path);
  });

  afterAll(async () => {
    await database.close();
    await source.close();
  });

  it("40 students in 4 processes racing for 5 seats: exactly 5 succeed", async () => {
    const studentIds = await createStudents(database, 40);
    const courseId = await createTestCourse(database, { max_students: 5 });
    const batches = Array.from({ length: processCount }, (_, worker) =>
      studentIds.filter((_, index) => index % processCount === worker).map((id): Pair => [id, courseId]),
    );

    const outcomes = await bindInProcesses(path, batches);

    expect(tally(outcomes)).toEqual({ ok: 5, [`422 Course ${courseId} is full: 5 of 5 seats taken`]: 35 });
    expect(await storedEnrollments(database, courseId)).toBe(5);
  });

  it("4 processes binding the same 5 pairs store each pair once", async () => {
    const courseId = await createTestCourse(database);
    const studentIds = (
      await database.kysely.selectFrom("students").select("id").orderBy("id").limit(5).execute()
    ).map((student) => student.id);
    const pairs = studentIds.map((id): Pair => [id, courseId]);

    const outcomes = await bindInProcesses(
      path,
      Array.from({ length: processCount }, () => pairs),
    );

    const conflicts = Object.fromEntries(
      studentIds.map((id) => [
        `409 Student ${id} is already enrolled in course ${courseId}`,
        processCount - 1,
      ]),
    );
    expect(tally(outcomes)).toEqual({ ok: 5, ...conflicts });
    expect(await storedEnrollments(database, courseId)).toBe(5);
  });
});

/** Starts one worker per batch, lets them all bind at once, and collects every outcome. */
async function bindInProcesses(path: string, batches: Pair[][]): Promise<string[]> {
  const workers = batches.map(() =>
    fork(workerScript, [path], { execPath: process.execPath, execArgv: ["--conditions=source"] }),
  );
  try {
    await Promise.all(workers.map((worker) => nextMessage(worker)));
    const replies = workers.map((worker) => nextMessage(worker));
    workers.forEach((worker, index) => {
      worker.send(batches[index]!);
    });
    return (await Promise.all(replies)).flat() as string[];
  } finally {
    for (const worker of workers) {
      worker.kill();
    }
  }
}

function nextMessage(worker: ChildProcess): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`bind worker exited with code ${code}`));
    worker.once("exit", onExit);
    worker.once("message", (message) => {
      worker.removeListener("exit", onExit);
      resolve(message);
    });
  });
}
