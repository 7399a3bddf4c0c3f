// A separate process that binds enrolments in a shared SQLite file, for the multi-process test.
// Protocol: it opens the file given as argv[2] and sends "ready"; the parent then sends the pairs
// to bind (all at once, so the processes race), and the worker replies with their outcomes.
import { once } from "node:events";
import { openDatabase } from "../../src/db/index.ts";
import { bindCourse } from "../../src/services.ts";
import { outcome } from "./outcomes.ts";

export type Pair = [studentId: number, courseId: number];

const database = await openDatabase(process.argv[2]);
process.send!("ready");
const [pairs] = (await once(process, "message")) as [Pair[]];
const results = await Promise.allSettled(
  pairs.map(([studentId, courseId]) => bindCourse(database, studentId, courseId)),
);
await database.close();
process.send!(results.map(outcome));
process.disconnect();
