// Soak run: the enrollment service (apps/enrollment/src/main.ts) on a fresh SQLite file, under a
// bounded mixed load from this process over loopback (lists, binds, unbinds, creates and bad input),
// for minutes. It reports what was served, the outcomes by kind, latency percentiles, and the
// server's memory at the start, the middle and the end, so that a leak shows. Not part of CI.
// With --runtime bun (or deno) the service is `npm run start:bun`'s: `unruffled serve` of
// apps/enrollment/src/server.ts on Bun.serve (Deno.serve), with the repository's Bun (Deno).
//
//   npm run soak                          5 minutes
//   npm run soak -- --quick               30 seconds
//   npm run soak -- --duration 600 --connections 32
//   npm run soak -- --runtime bun
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort } from "process-support";

const ROOT_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
const MAIN = join(ROOT_DIR, "apps", "enrollment", "src", "main.ts");
const SERVED = join(ROOT_DIR, "apps", "enrollment", "src", "server.ts");
const CLI = join(ROOT_DIR, "packages", "unruffled", "bin", "unruffled.js");
const BIN = join(ROOT_DIR, "node_modules", ".bin");

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    duration: { type: "string" },
    connections: { type: "string", default: "16" },
    runtime: { type: "string", default: "node" },
    help: { type: "boolean", default: false },
  },
});
if (args.help) {
  console.log(
    "npm run soak [-- --quick | --duration <seconds>] [--connections <n>] [--runtime node|bun|deno]",
  );
  process.exit(0);
}
if (!["node", "bun", "deno"].includes(args.runtime)) {
  console.error(`--runtime is node, bun or deno, not ${args.runtime}`);
  process.exit(2);
}
const durationS = Number(args.duration ?? (args.quick ? 30 : 300));
const connections = Number(args.connections);
// The write endpoints outside the seed (student-create, course-create) want the admin token: the
// service gets this one, and every request of the soak carries it.
const ADMIN_TOKEN = `soak-${process.pid}`;
const STUDENTS = 300;
const COURSES = 30;
const REQUEST_TIMEOUT_MS = 10_000;

// ---------------------------------------------------------------------------------------------
// The mix: each kind of request with its weight and the envelope codes it may legitimately get.

interface Operation {
  kind: string;
  weight: number;
  /** Codes this request may get; anything else counts as unexpected. */
  expected: readonly number[];
  make(): { method: "GET" | "POST"; path: string; body?: string; contentType?: string };
}

const pick = (max: number) => 1 + Math.floor(Math.random() * max);
let created = 0;
const pair = () => JSON.stringify({ student_id: pick(STUDENTS), course_id: pick(COURSES) });

const OPERATIONS: Operation[] = [
  {
    kind: "list students",
    weight: 25,
    expected: [0],
    make: () => ({ method: "GET", path: `/api/enroll/student-list?page=${pick(10)}&size=${pick(50)}` }),
  },
  {
    kind: "search students",
    weight: 5,
    expected: [0],
    make: () => ({ method: "GET", path: `/api/enroll/student-list?search=${pick(9)}&size=20` }),
  },
  {
    kind: "list courses",
    weight: 15,
    expected: [0],
    make: () => ({ method: "GET", path: `/api/enroll/course-list?page=${pick(3)}&size=10` }),
  },
  {
    kind: "bind",
    weight: 20,
    expected: [0, 409, 422],
    make: () => ({ method: "POST", path: "/api/enroll/bind", body: pair() }),
  },
  {
    kind: "unbind",
    weight: 15,
    expected: [0, 409],
    make: () => ({ method: "POST", path: "/api/enroll/unbind", body: pair() }),
  },
  {
    kind: "create student",
    weight: 6,
    expected: [0],
    make: () => {
      const n = ++created;
      const body = { name: `Soak ${n}`, email: `soak${n}@example.edu`, age: 20, student_id: `K${n}` };
      return { method: "POST", path: "/api/enroll/student-create", body: JSON.stringify(body) };
    },
  },
  {
    kind: "create course",
    weight: 2,
    expected: [0],
    make: () => {
      const n = ++created;
      return {
        method: "POST",
        path: "/api/enroll/course-create",
        body: JSON.stringify({ name: `Soak ${n}`, code: `K${n}` }),
      };
    },
  },
  {
    kind: "bad: malformed JSON",
    weight: 3,
    expected: [400],
    make: () => ({ method: "POST", path: "/api/enroll/bind", body: '{"student_id": 1,' }),
  },
  {
    kind: "bad: invalid fields",
    weight: 4,
    expected: [422],
    make: () => ({
      method: "POST",
      path: "/api/enroll/student-create",
      body: '{"name":"","email":"x","age":0}',
    }),
  },
  {
    kind: "bad: invalid query",
    weight: 2,
    expected: [422],
    make: () => ({ method: "GET", path: "/api/enroll/course-list?page=0&size=500" }),
  },
  {
    kind: "bad: unknown path",
    weight: 2,
    expected: [404],
    make: () => ({ method: "GET", path: "/api/enroll/nothing-here" }),
  },
  {
    kind: "bad: wrong method",
    weight: 1,
    expected: [405],
    make: () => ({ method: "GET", path: "/api/enroll/bind" }),
  },
];
const TOTAL_WEIGHT = OPERATIONS.reduce((sum, operation) => sum + operation.weight, 0);

function pickOperation(): Operation {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const operation of OPERATIONS) {
    roll -= operation.weight;
    if (roll < 0) return operation;
  }
  return OPERATIONS[0]!;
}

// ---------------------------------------------------------------------------------------------
// Measuring

/** Latencies in 0.1 ms buckets up to 10 s: exact enough for percentiles, in constant memory. */
class LatencyHistogram {
  private readonly buckets = new Uint32Array(100_001);
  count = 0;
  max = 0;

  record(ms: number): void {
    this.buckets[Math.min(this.buckets.length - 1, Math.round(ms * 10))]!++;
    this.count++;
    if (ms > this.max) this.max = ms;
  }

  percentile(p: number): number {
    const rank = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let bucket = 0; bucket < this.buckets.length; bucket++) {
      seen += this.buckets[bucket]!;
      if (seen >= rank) return bucket / 10;
    }
    return this.max;
  }
}

/** Resident memory of a process, from /proc (Linux), in MiB. */
function rssMiB(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
    return Number.isFinite(kib) ? kib / 1024 : undefined;
  } catch {
    return undefined;
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: connections });

interface Outcome {
  status: number;
  code: number | undefined;
}

function send(method: string, path: string, body: string | undefined, port: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        timeout: REQUEST_TIMEOUT_MS,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(body !== undefined && {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          }),
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () => {
          let code: number | undefined;
          try {
            code = (JSON.parse(text) as { code?: number }).code;
          } catch {}
          resolve({ status: response.statusCode ?? 0, code });
        });
        response.on("error", reject);
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(new Error("timeout")));
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

// ---------------------------------------------------------------------------------------------
// The run

/** The service's command on the runtime asked for: `npm start`'s on Node, `npm run start:bun`'s on Bun. */
function serviceCommand(port: number): [string, string[]] {
  const serve = [CLI, "serve", SERVED, "--port", String(port), "--log-level", "warn"];
  if (args.runtime === "bun") return [join(BIN, "bun"), ["--conditions=source", ...serve]];
  if (args.runtime === "deno") {
    return [join(BIN, "deno"), ["run", "-A", "--conditions=source", "--node-modules-dir=manual", ...serve]];
  }
  return [process.execPath, ["--conditions=source", MAIN]];
}

async function startService(databaseUrl: string, port: number): Promise<ChildProcess> {
  const [file, argv] = serviceCommand(port);
  const child = spawn(file, argv, {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: "warn",
      ENROLL_ADMIN_TOKEN: ADMIN_TOKEN,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const outcome = await send("GET", "/api/enroll/hello", undefined, port);
      if (outcome.status === 200) return child;
    } catch {}
    if (child.exitCode !== null || Date.now() > deadline) throw new Error("the service did not start");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends one of the seed's requests; the soak stops if it is not created (an empty service would soak nothing). */
async function create(path: string, body: string, port: number): Promise<void> {
  const outcome = await send("POST", path, body, port);
  if (outcome.status !== 200 || outcome.code !== 0) {
    throw new Error(`seeding failed: POST ${path} answered ${outcome.status} (code ${outcome.code})`);
  }
}

async function seed(port: number): Promise<void> {
  for (let n = 1; n <= STUDENTS; n++) {
    const body = JSON.stringify({
      name: `Student ${n}`,
      email: `s${n}@example.edu`,
      age: 20,
      student_id: `S${n}`,
    });
    await create("/api/enroll/student-create", body, port);
  }
  for (let n = 1; n <= COURSES; n++) {
    // Some small courses fill up, so binds also meet "course full"; one in ten is inactive.
    const body = JSON.stringify({
      name: `Course ${n}`,
      code: `C${n}`,
      max_students: n % 3 === 0 ? 5 : 80,
      is_active: n % 10 !== 0,
    });
    await create("/api/enroll/course-create", body, port);
  }
}

interface Tally {
  byKind: Map<string, Map<string, number>>;
  unexpected: Map<string, number>;
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "enrollment-soak-"));
  const port = await freePort();
  const child = await startService(join(dir, "soak.db"), port);
  const pid = child.pid!;
  await seed(port);
  console.log(
    `soak: ${durationS} s, ${connections} connections, service pid ${pid} on port ${port} (${args.runtime}, SQLite)`,
  );

  const histogram = new LatencyHistogram();
  const tally: Tally = { byKind: new Map(), unexpected: new Map() };
  const rss: { at: string; mib: number | undefined }[] = [{ at: "start", mib: rssMiB(pid) }];
  let maxRss = rss[0]!.mib ?? 0;
  const started = performance.now();
  const endAt = started + durationS * 1000;
  let middleTaken = false;

  const sampler = setInterval(() => {
    const mib = rssMiB(pid);
    if (mib !== undefined && mib > maxRss) maxRss = mib;
    const elapsed = (performance.now() - started) / 1000;
    if (!middleTaken && elapsed >= durationS / 2) {
      middleTaken = true;
      rss.push({ at: "middle", mib });
    }
    if (Math.round(elapsed) % 30 === 0) {
      console.log(`  ${Math.round(elapsed)} s: ${histogram.count} requests, RSS ${mib?.toFixed(1)} MiB`);
    }
  }, 1000);

  const user = async () => {
    while (performance.now() < endAt) {
      const operation = pickOperation();
      const { method, path, body } = operation.make();
      const before = performance.now();
      let label: string;
      try {
        const outcome = await send(method, path, body, port);
        histogram.record(performance.now() - before);
        label = outcome.status === 200 ? `code ${outcome.code}` : `HTTP ${outcome.status}`;
        if (
          outcome.status !== 200 ||
          outcome.code === undefined ||
          !operation.expected.includes(outcome.code)
        ) {
          count(tally.unexpected, `${operation.kind}: ${label}`);
        }
      } catch (error) {
        label = `transport error (${(error as Error).message})`;
        count(tally.unexpected, `${operation.kind}: ${label}`);
      }
      const kinds = tally.byKind.get(operation.kind) ?? new Map<string, number>();
      tally.byKind.set(operation.kind, kinds);
      count(kinds, label);
    }
  };
  await Promise.all(Array.from({ length: connections }, user));
  clearInterval(sampler);
  const elapsedS = (performance.now() - started) / 1000;
  rss.push({ at: "end", mib: rssMiB(pid) });

  child.kill("SIGTERM");
  const [exitCode] = await once(child, "exit");
  agent.destroy();
  await rm(dir, { recursive: true, force: true });

  console.log(
    `\nrequests served: ${histogram.count} in ${elapsedS.toFixed(1)} s (${(histogram.count / elapsedS).toFixed(0)}/s)`,
  );
  console.log(
    `latency ms: p50 ${histogram.percentile(50)}, p90 ${histogram.percentile(90)}, p99 ${histogram.percentile(99)}, max ${histogram.max.toFixed(1)}`,
  );
  console.log(
    `server RSS MiB: ${rss.map(({ at, mib }) => `${at} ${mib?.toFixed(1) ?? "?"}`).join(", ")}; highest ${maxRss.toFixed(1)}`,
  );
  console.log("outcomes by kind:");
  for (const [kind, outcomes] of tally.byKind) {
    console.log(`  ${kind.padEnd(22)} ${[...outcomes].map(([label, n]) => `${label}: ${n}`).join(", ")}`);
  }
  const unexpected = [...tally.unexpected].reduce((sum, [, n]) => sum + n, 0);
  console.log(`unexpected answers: ${unexpected}`);
  for (const [label, n] of tally.unexpected) console.log(`  ${label}: ${n}`);
  console.log(`service exit code after SIGTERM: ${exitCode}`);
  process.exitCode = unexpected === 0 && exitCode === 0 ? 0 : 1;
}

await main();
