// Does leaving out null fields (`exclude_none`) cost the 100-row list anything? The same 100 student
// rows, each with two optional fields that are null in every other row, written through the compiled
// serializer of one ResponseSpec without and with `exclude_none`; batches alternate and the fastest
// of each is printed, in µs per list, with their ratio (with / without).
//
//   node bench/exclude-none.ts          (-- --batches N, --size N)
import { parseArgs } from "node:util";
import { p, responseSerializersOf } from "unruffled/route";
import { z } from "zod";
import { STUDENT_ROWS, Student } from "./servers/student-rows.ts";

const { values } = parseArgs({
  options: { batches: { type: "string", default: "15" }, size: { type: "string", default: "2000" } },
});
const BATCHES = Number(values.batches);
const BATCH_SIZE = Number(values.size);

const Row = Student.extend({ nickname: z.string().nullish(), advisor_id: z.int().nullish() });
const Page = z.object({ code: z.int().default(0), message: z.string().default(""), data: z.array(Row) });
const page = {
  data: STUDENT_ROWS.map((row, index) => ({
    ...row,
    nickname: index % 2 === 0 ? null : `nick ${index}`,
    advisor_id: index % 2 === 0 ? null : index,
  })),
};

function writerOf(exclude_none: boolean): (value: unknown) => string {
  const serializers = responseSerializersOf([p.ResponseSpec({ model: Page, exclude_none })], "bench");
  return serializers!.get(200)!.write;
}
const without = writerOf(false);
const withExcludeNone = writerOf(true);
if (without(page).includes("password_hash") || withExcludeNone(page).includes("password_hash")) {
  throw new Error("a serializer sent the password hash");
}
if (withExcludeNone(page).includes(":null")) throw new Error("exclude_none sent a null field");

let sink = 0;
function batch(write: (value: unknown) => string): number {
  const started = process.hrtime.bigint();
  for (let index = 0; index < BATCH_SIZE; index++) sink += write(page).length;
  return Number(process.hrtime.bigint() - started) / BATCH_SIZE / 1000;
}

let fastestWithout = Number.POSITIVE_INFINITY;
let fastestWith = Number.POSITIVE_INFINITY;
for (let round = 0; round < BATCHES; round++) {
  fastestWithout = Math.min(fastestWithout, batch(without));
  fastestWith = Math.min(fastestWith, batch(withExcludeNone));
}
console.log(
  `100 rows, fastest of ${BATCHES} batches of ${BATCH_SIZE} (Node ${process.version}; sink ${sink % 10})`,
);
console.log(`  without exclude_none  ${fastestWithout.toFixed(1)} µs  (${without(page).length} characters)`);
console.log(
  `  with exclude_none     ${fastestWith.toFixed(1)} µs  (${withExcludeNone(page).length} characters)`,
);
console.log(`  ratio with / without  ${(fastestWith / fastestWithout).toFixed(2)}`);
