// unruffled's own cost per request through its fetch handler, in process (no sockets), on the
// runtime that runs this file: `npx bun --conditions=source bench/fetch-overhead.ts` (or deno, or
// node). Prints requests per CPU-second of hello, list and bind, each the median of 5 timed runs:
// a ratio between two versions of the fetch adapter is read on one machine, side by side.
import { app } from "./servers/unruffled-app.ts";

const ORIGIN = "http://127.0.0.1:8000";
const REQUESTS = Number(process.env.REQUESTS ?? 20_000);
const BIND_BODY = JSON.stringify({ student_id: 1, course_id: 2 });

const cases: Record<string, () => Request> = {
  hello: () => new Request(`${ORIGIN}/hello`),
  list: () => new Request(`${ORIGIN}/api/enroll/student-list?page=1&size=10`),
  bind: () =>
    new Request(`${ORIGIN}/api/enroll/bind`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(BIND_BODY.length) },
      body: BIND_BODY,
    }),
};

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

async function perCpuSecond(make: () => Request): Promise<number> {
  const start = cpuSeconds();
  for (let index = 0; index < REQUESTS; index++) {
    const response = await app.fetch(make());
    await response.arrayBuffer();
  }
  return REQUESTS / (cpuSeconds() - start);
}

for (const [name, make] of Object.entries(cases)) {
  await perCpuSecond(make); // warm-up
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) runs.push(await perCpuSecond(make));
  runs.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(6)} ${Math.round(runs[2]!).toLocaleString("en")} req/CPU-s (runs ${runs.map((r) => Math.round(r / 1000)).join(", ")} k)`,
  );
}
