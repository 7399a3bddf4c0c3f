// What a rate limit costs a route: GET /hello unlimited and the same endpoint limited, served by one
// process on core 0 and loaded by wrk on core 1, round after round, interleaved. Prints each
// round's requests/s, the pooled ratio (limited / unlimited), and, for the Redis and PostgreSQL
// stores, the latency added at p50 and p99 (fewer connections: a store's round trip is what is
// measured, not its throughput). Ratios, never assertions: the machine is shared.
//
//   npm run bench:rate-limit                (-- --rounds N --seconds N --stores memory,redis,postgres)
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort, waitFor } from "process-support";
import { startPrivatePostgres } from "../apps/enrollment/test/support/postgres.ts";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "3" },
    stores: { type: "string", default: "memory,redis,postgres" },
  },
});
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const server = join(import.meta.dirname, "servers", "rate-limit-app.ts");

interface Run {
  rps: number;
  p50: number;
  p99: number;
}

/** One wrk run on core 1: requests/s and the p50/p99 latency in µs. */
function wrk(url: string, connections: number): Run {
  const out = execFileSync(
    "taskset",
    ["-c", "1", "wrk", "-t1", `-c${connections}`, `-d${SECONDS}s`, "--latency", url],
    { encoding: "utf8" },
  );
  const micros = (label: string) => {
    const match = new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s)`, "m").exec(out);
    if (match === null) throw new Error(`wrk printed no ${label} latency:\n${out}`);
    return Number(match[1]) * (match[2] === "us" ? 1 : match[2] === "ms" ? 1_000 : 1_000_000);
  };
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]);
  if (/Non-2xx/.test(out)) throw new Error(`wrk saw non-2xx answers:\n${out}`);
  return { rps, p50: micros("50%"), p99: micros("99%") };
}

async function startServer(store: string, storeUrl = ""): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn("taskset", ["-c", "0", process.execPath, "--conditions=source", server], {
    env: { ...process.env, RATE_STORE: store, STORE_URL: storeUrl, PORT: String(port) },
    stdio: "inherit",
  });
  await waitFor(`the ${store} server`, () =>
    fetch(`http://127.0.0.1:${port}/limited`).then(
      (response) => (response.ok ? true : undefined),
      () => undefined,
    ),
  );
  return { port, child };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(store: string, storeUrl: string, connections: number) {
  const { port, child } = await startServer(store, storeUrl);
  const base = `http://127.0.0.1:${port}`;
  // Warm both routes up before anything is counted.
  wrk(`${base}/hello`, connections);
  wrk(`${base}/limited`, connections);
  const plain: Run[] = [];
  const limited: Run[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // Interleaved, the order swapped every round, so that a drift of the machine hits both.
    const pair = round % 2 === 1 ? ["hello", "limited"] : ["limited", "hello"];
    for (const route of pair)
      (route === "hello" ? plain : limited).push(wrk(`${base}/${route}`, connections));
    const [a, b] = [plain.at(-1)!, limited.at(-1)!];
    console.log(
      `  ${store} round ${round}: unlimited ${a.rps.toFixed(0)} req/s, limited ${b.rps.toFixed(0)} req/s (${(b.rps / a.rps).toFixed(3)}×)`,
    );
  }
  await stop(child);
  const pooled =
    limited.reduce((sum, run) => sum + run.rps, 0) / plain.reduce((sum, run) => sum + run.rps, 0);
  console.log(
    `${store}: pooled limited/unlimited = ${pooled.toFixed(3)}×; p50 ${median(plain.map((run) => run.p50)).toFixed(0)} → ${median(limited.map((run) => run.p50)).toFixed(0)} µs, p99 ${median(plain.map((run) => run.p99)).toFixed(0)} → ${median(limited.map((run) => run.p99)).toFixed(0)} µs (medians of the rounds)`,
  );
}

const stores = values.stores.split(",");
if (stores.includes("memory")) await measure("memory", "", 50);
if (stores.includes("redis")) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "bench-redis-"));
  const redis = spawn(
    "taskset",
    [
      "-c",
      "1",
      "redis-server",
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
    ],
    { stdio: "ignore" },
  );
  try {
    await measure("redis", `redis://127.0.0.1:${port}`, 10);
  } finally {
    redis.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}
if (stores.includes("postgres")) {
  const postgres = await startPrivatePostgres();
  try {
    await measure("postgres", await postgres.createDatabase(), 10);
  } finally {
    await postgres.stop();
  }
}
