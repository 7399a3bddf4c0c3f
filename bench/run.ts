// Side-by-side benchmark: starts the servers of a suite one at a time, checks that each answers the
// suite's endpoints correctly (and rejects invalid input), then loads them from a second process
// (bench/load.ts: wrk when installed, else autocannon) in interleaved rounds, and prints a table.
// The suites (bench/suites/) say what is measured; this file is the machinery.
//
//   npm run bench                    frameworks: five servers, in-memory endpoints (about 8 minutes on 2 cores)
//   npm run bench:enrollment         enrollment: the enrollment service on SQLite, three servers (about 3.5 minutes)
//   npm run bench -- --quick         smoke run (about 1 minute)
//   npm run bench -- --help          every option
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { validate } from "./checks.ts";
import type { LoadGenerator, LoadResult } from "./load.ts";
import {
  BENCH_DIR,
  hasTaskset,
  load,
  loadSpec,
  procStatusKb,
  ROOT_DIR,
  type Running,
  sleep,
  startServer,
  stopServer,
  wrkVersion,
} from "./processes.ts";
import { median, medianInterval } from "./stats.ts";
import { enrollment } from "./suites/enrollment.ts";
import { frameworks } from "./suites/frameworks.ts";
import {
  appliesTo,
  type EndpointDef,
  type EndpointSummary,
  type ServerDef,
  type Suite,
  type Summary,
} from "./suites/suite.ts";

const SUITES = { frameworks, enrollment } satisfies Record<string, Suite>;
type SuiteId = keyof typeof SUITES;
const isSuiteId = (id: string): id is SuiteId => Object.hasOwn(SUITES, id);

// ---------------------------------------------------------------------------------------------
// Configuration: defaults < environment (BENCH_*) < command-line flags

/** Other CPU (% of one core) above which a measured run counts as disturbed. */
const NOISY_PCT = 20;

type Config = {
  /** the suite measured */
  suite: SuiteId;
  quick: boolean;
  rounds: number;
  warmup: number;
  duration: number;
  connections: number;
  pipelining: number;
  maxRequests: number;
  startTimeoutMs: number;
  quietWait: number;
  retries: number;
  only: string[] | null;
  /** the endpoints loaded, in the suite's order; null: all of them */
  endpoints: string[] | null;
  pin: boolean;
  serverCpu: string;
  loadCpu: string;
  /** "auto": wrk when it is installed, autocannon otherwise */
  loadGenerator: "auto" | LoadGenerator;
};

const HELP = `Usage: npm run bench -- [options]
       npm run bench:enrollment -- [options]      (the same with --suite enrollment)

  --suite S            what is measured (default frameworks; env BENCH_SUITE):
${Object.values(SUITES)
  .map((suite) => `                         ${suite.id.padEnd(11)} ${suite.title}`)
  .join("\n")}
  --quick              smoke run: 2 rounds, 0.5 s warm-up, 1 s measurement (about 1 minute)
  --rounds N           interleaved rounds (default 8; env BENCH_ROUNDS)
  --warmup S           warm-up seconds per server and endpoint, every round (default 1; env BENCH_WARMUP)
  --duration S         measured seconds per server and endpoint, every round (default 2; env BENCH_DURATION)
  --connections N      concurrent connections (default 32; env BENCH_CONNECTIONS)
  --pipelining N       HTTP pipelining factor (default 1; env BENCH_PIPELINING)
  --max-requests N     cap on requests per measured run, autocannon only (default 5000000; env BENCH_MAX_REQUESTS)
  --load-generator G   wrk or autocannon (default: wrk when installed, else autocannon; env BENCH_LOAD_GENERATOR)
  --only a,b           run only these servers (env BENCH_ONLY):
${Object.values(SUITES)
  .map(
    (suite) => `                         ${suite.id.padEnd(11)} ${suite.servers.map((s) => s.id).join(",")}`,
  )
  .join("\n")}
  --endpoints a,b      load only these endpoints (env BENCH_ENDPOINTS), with the route each is compared with:
${Object.values(SUITES)
  .map(
    (suite) =>
      `                         ${suite.id.padEnd(11)} ${suite.endpoints.map((e) => e.id).join(",")}`,
  )
  .join("\n")}
  --quiet-wait S       before each run, wait up to S seconds for the machine to be idle (default 2, quick 0.5; 0: never)
  --retries N          re-run a measurement disturbed by other processes (other CPU ≥ ${NOISY_PCT}% of a core) up
                       to N times, keeping the least disturbed run (default 1, quick 0; env BENCH_RETRIES)
  --no-pin             do not pin server and load generator to separate cores
  --server-cpu C       core for the server (default 0; env BENCH_SERVER_CPU)
  --load-cpu C         core for the load generator (default 1; env BENCH_LOAD_CPU)
  --help               this text
`;

function readConfig(argv: string[]): Config {
  const { values } = parseArgs({
    args: argv,
    options: {
      suite: { type: "string" },
      quick: { type: "boolean", default: false },
      rounds: { type: "string" },
      warmup: { type: "string" },
      duration: { type: "string" },
      connections: { type: "string" },
      pipelining: { type: "string" },
      "max-requests": { type: "string" },
      only: { type: "string" },
      endpoints: { type: "string" },
      "quiet-wait": { type: "string" },
      retries: { type: "string" },
      "no-pin": { type: "boolean", default: false },
      "server-cpu": { type: "string" },
      "load-cpu": { type: "string" },
      "load-generator": { type: "string" },
      help: { type: "boolean", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const env = process.env;
  const suiteId = values.suite ?? env.BENCH_SUITE ?? "frameworks";
  if (!isSuiteId(suiteId))
    throw new Error(`--suite must be ${Object.keys(SUITES).join(" or ")}, got ${suiteId}`);
  const suite: Suite = SUITES[suiteId];
  const quick = values.quick || env.BENCH_QUICK === "1";
  const number = (flag: string | undefined, envValue: string | undefined, fallback: number, name: string) => {
    const raw = flag ?? envValue;
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0)
      throw new Error(`--${name} must be a non-negative number, got ${raw}`);
    return value;
  };
  const list = (raw: string | undefined) =>
    raw
      ? raw
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : null;
  const only = list(values.only ?? env.BENCH_ONLY);
  for (const id of only ?? []) {
    if (!suite.servers.some((s) => s.id === id))
      throw new Error(`--only: unknown server "${id}" in the ${suite.id} suite`);
  }
  const endpoints = list(values.endpoints ?? env.BENCH_ENDPOINTS);
  for (const id of endpoints ?? []) {
    const endpoint = suite.endpoints.find((e) => e.id === id);
    if (endpoint === undefined)
      throw new Error(`--endpoints: unknown endpoint "${id}" in the ${suite.id} suite`);
    // Its ratio to the route it is compared with needs that route in the same rounds.
    if (endpoint.baseline !== undefined && !endpoints!.includes(endpoint.baseline))
      throw new Error(`--endpoints: ${id} is compared with ${endpoint.baseline}; load both`);
  }
  const loadGenerator = values["load-generator"] ?? env.BENCH_LOAD_GENERATOR ?? "auto";
  if (loadGenerator !== "auto" && loadGenerator !== "wrk" && loadGenerator !== "autocannon")
    throw new Error(`--load-generator must be wrk or autocannon, got ${loadGenerator}`);
  return {
    suite: suiteId,
    quick,
    // Many short rounds rather than a few long ones: on a shared VM single runs vary by ±20 % even
    // seconds apart, and the per-round ratios' median needs many of them to settle.
    rounds: Math.max(1, Math.round(number(values.rounds, env.BENCH_ROUNDS, quick ? 2 : 8, "rounds"))),
    warmup: number(values.warmup, env.BENCH_WARMUP, quick ? 0.5 : 1, "warmup"),
    duration: Math.max(0.5, number(values.duration, env.BENCH_DURATION, quick ? 1 : 2, "duration")),
    connections: Math.max(
      1,
      Math.round(number(values.connections, env.BENCH_CONNECTIONS, 32, "connections")),
    ),
    pipelining: Math.max(1, Math.round(number(values.pipelining, env.BENCH_PIPELINING, 1, "pipelining"))),
    maxRequests: Math.max(
      1000,
      Math.round(number(values["max-requests"], env.BENCH_MAX_REQUESTS, 5_000_000, "max-requests")),
    ),
    startTimeoutMs: 20_000,
    quietWait: number(values["quiet-wait"], env.BENCH_QUIET_WAIT, quick ? 0.5 : 2, "quiet-wait"),
    retries: Math.round(number(values.retries, env.BENCH_RETRIES, quick ? 0 : 1, "retries")),
    only,
    endpoints,
    pin: !values["no-pin"] && env.BENCH_NO_PIN !== "1",
    serverCpu: values["server-cpu"] ?? env.BENCH_SERVER_CPU ?? "0",
    loadCpu: values["load-cpu"] ?? env.BENCH_LOAD_CPU ?? "1",
    loadGenerator,
  };
}

// ---------------------------------------------------------------------------------------------
// Small helpers

/** Busy ticks of the whole machine (user, nice, system, irq, softirq, steal), or null without /proc. */
function machineBusyTicks(): number | null {
  try {
    const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return user + nice + system + irq + softirq + steal;
  } catch {
    return null;
  }
}

const quietWaits = { ms: 0 };
const noisyRetries = { count: 0 };

/**
 * Other engineers' test suites share the machine: before a run, wait (up to `maxSeconds`) until the
 * machine uses less than a quarter of a core in a 200 ms window (the idle server is included).
 * Returns the time waited beyond the first window.
 */
async function waitForQuiet(maxSeconds: number): Promise<number> {
  if (maxSeconds <= 0) return 0;
  const started = performance.now();
  for (;;) {
    const before = machineBusyTicks();
    await sleep(200);
    const after = machineBusyTicks();
    if (before === null || after === null) return 0;
    const coreFraction = (after - before) / 100 / 0.2; // USER_HZ = 100
    const waited = performance.now() - started;
    if (coreFraction < 0.25 || waited >= maxSeconds * 1000) return Math.max(0, waited - 200);
  }
}

// ---------------------------------------------------------------------------------------------
// The run

type Sample = {
  round: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  rssMB: number | null;
  serverCpuPct: number | null;
  loadCpuPct: number;
  otherCpuPct: number | null;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** answers without the endpoint's `bodyIncludes` */
  wrongBody: number;
  /** failed responses (non-2xx, socket errors, timeouts, wrong bodies) during the warm-up before this run */
  warmupFailed: number;
  /** the start of the first wrong body, of the measured run or else its warm-up: what came instead */
  wrongBodySample: string | null;
};

/** Responses of a run that were not a success, its warm-up included. */
const failedResponses = (s: Sample) => s.non2xx + s.errors + s.timeouts + s.wrongBody + s.warmupFailed;

type ServerOutcome = {
  id: string;
  label: string;
  status: "measured" | "skipped";
  reason?: string;
  warnings: string[];
  roundFailures: { round: number; reason: string }[];
  startupMs: number[];
  peakRssMB: number[];
  endpoints: Record<string, Sample[]>;
};

function fmtInt(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "-";
}
function fmt(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "-" : value.toFixed(digits);
}
function ratio(a: number, b: number): string {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : "-";
}

function table(headers: string[], rows: string[][], alignLeft = 1): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < alignLeft ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)]
    .map((l) => `  ${l}`)
    .join("\n");
}

function packageVersion(name: string): string | null {
  for (const base of [join(BENCH_DIR, "node_modules"), join(ROOT_DIR, "node_modules")]) {
    try {
      return (JSON.parse(readFileSync(join(base, name, "package.json"), "utf8")) as { version: string })
        .version;
    } catch {
      // try the next location
    }
  }
  return null;
}

function machineInfo() {
  const cpus = os.cpus();
  const git = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT_DIR, encoding: "utf8" });
  return {
    date: new Date().toISOString(),
    cpuModel: cpus[0]?.model ?? "unknown",
    cores: os.availableParallelism(),
    memoryGB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    commit: git.status === 0 ? git.stdout.trim() : null,
    versions: Object.fromEntries(
      [
        "fastify",
        "hono",
        "@hono/node-server",
        "express",
        "zod",
        "autocannon",
        "unruffled",
        "kysely",
        "better-sqlite3",
      ].map((name) => [name, packageVersion(name)]),
    ),
  };
}

/** One endpoint of one running server: warm-up and measured run (re-run if disturbed), as a sample. */
async function measure(
  endpoint: EndpointDef,
  running: Running,
  round: number,
  config: Config,
  generator: LoadGenerator,
  loadCpu: string | null,
): Promise<Sample> {
  const spec = loadSpec(endpoint, running, config, generator);
  let result: LoadResult | undefined;
  for (let attempt = 0; attempt <= config.retries; attempt++) {
    quietWaits.ms += await waitForQuiet(config.quietWait);
    const candidate = await load(spec, loadCpu);
    if (result === undefined || (candidate.otherCpuPct ?? 0) < (result.otherCpuPct ?? 0)) result = candidate;
    if ((result.otherCpuPct ?? 0) < NOISY_PCT) break;
    if (attempt < config.retries) noisyRetries.count++;
  }
  if (result === undefined) throw new Error("no measurement");
  const rssKb = procStatusKb(running.pid, "VmRSS");
  const warm = result.warmup;
  return {
    round,
    rps: result.rps,
    p50Ms: result.latencyMs.p50,
    p99Ms: result.latencyMs.p99,
    rssMB: rssKb === null ? null : rssKb / 1024,
    serverCpuPct: result.serverCpuPct,
    loadCpuPct: result.loadCpuPct,
    otherCpuPct: result.otherCpuPct,
    requests: result.requests,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    wrongBody: result.wrongBody,
    warmupFailed: warm ? warm.non2xx + warm.errors + warm.timeouts + warm.wrongBody : 0,
    wrongBodySample: result.wrongBodySample ?? warm?.wrongBodySample ?? null,
  };
}

/** A server started for a run: up and answering correctly, or why not (then it is stopped). */
type ServerStart =
  | { kind: "up"; running: Running; warnings: string[] }
  | { kind: "not started"; error: string }
  | { kind: "wrong answers"; failures: string[]; warnings: string[] };

/**
 * Starts a server and runs the suite's checks on it, the same way in pre-flight and in every round:
 * a server whose sources changed under it (the framework is written in this tree) must not be
 * measured while answering wrongly. Each start's time goes to `outcome.startupMs`.
 */
async function startChecked(
  server: ServerDef,
  outcome: ServerOutcome,
  suite: Suite,
  config: Config,
  serverCpu: string | null,
): Promise<ServerStart> {
  let running: Running;
  try {
    running = await startServer(
      join(BENCH_DIR, server.file),
      suite.readyPath,
      config.startTimeoutMs,
      serverCpu,
    );
  } catch (error) {
    return { kind: "not started", error: (error as Error).message };
  }
  outcome.startupMs.push(running.startupMs);
  const { failures, warnings } = await validate(running.port, suite.checks, server.id);
  if (failures.length === 0) return { kind: "up", running, warnings };
  await stopServer(running.child);
  return { kind: "wrong answers", failures, warnings };
}

async function main(): Promise<void> {
  const config = readConfig(process.argv.slice(2));
  const whole: Suite = SUITES[config.suite];
  // Checks stay whole: every server is still checked on every endpoint before it is loaded.
  const suite: Suite = {
    ...whole,
    endpoints: whole.endpoints.filter((e) => config.endpoints === null || config.endpoints.includes(e.id)),
  };
  const servers = suite.servers.filter((s) => config.only === null || config.only.includes(s.id));
  const canPin = config.pin && os.availableParallelism() >= 2 && hasTaskset();
  const serverCpu = canPin ? config.serverCpu : null;
  const loadCpu = canPin ? config.loadCpu : null;
  const machine = machineInfo();
  const wrk = wrkVersion();
  machine.versions.wrk = wrk;
  if (config.loadGenerator === "wrk" && wrk === null) {
    process.stderr.write("bench: --load-generator wrk, but wrk is not installed (apt-get install wrk)\n");
    process.exit(1);
  }
  const generator: LoadGenerator =
    config.loadGenerator === "auto" ? (wrk === null ? "autocannon" : "wrk") : config.loadGenerator;
  const t0 = performance.now();

  const log = (message: string) => process.stdout.write(`${message}\n`);
  log(
    `bench ${suite.id}: ${suite.title}\n` +
      `       ${servers.length} servers × ${suite.endpoints.length} endpoints, ${config.rounds} round(s), ` +
      `${config.warmup}s warm-up + ${config.duration}s measured each, ${config.connections} connections` +
      (config.pipelining > 1 ? `, pipelining ${config.pipelining}` : ""),
  );
  log(`       ${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}`);
  log(
    canPin
      ? `       server pinned to core ${serverCpu}, load generator to core ${loadCpu} (taskset)`
      : "       no core pinning (taskset missing, fewer than 2 cores, or --no-pin)",
  );
  log(
    generator === "wrk"
      ? `       load generator: wrk ${wrk} (1 thread, ${config.connections} connections)`
      : `       load generator: autocannon ${machine.versions.autocannon ?? ""}` +
          (wrk === null
            ? " (wrk not found: `apt-get install wrk` for a load generator that does not saturate first)"
            : " (forced; wrk is installed)"),
  );

  const outcomes = new Map<string, ServerOutcome>();
  for (const server of servers) {
    outcomes.set(server.id, {
      id: server.id,
      label: server.label,
      status: "measured",
      warnings: [],
      roundFailures: [],
      startupMs: [],
      peakRssMB: [],
      endpoints: Object.fromEntries(suite.endpoints.map((e) => [e.id, []])),
    });
  }

  // 1. Pre-flight: start each server, check its answers, stop it.
  log("\npre-flight: correctness of every server");
  for (const server of servers) {
    const outcome = outcomes.get(server.id);
    if (!outcome) continue;
    const skip = (reason: string) => {
      outcome.status = "skipped";
      outcome.reason = reason;
      log(`  ✗ ${server.label.padEnd(16)} skipped — ${reason}`);
    };
    const start = await startChecked(server, outcome, suite, config, serverCpu);
    if (start.kind === "not started") {
      skip(`failed to start: ${start.error}`);
      continue;
    }
    outcome.warnings.push(...start.warnings);
    if (start.kind === "wrong answers") {
      skip(`failed correctness checks: ${start.failures.join("; ")}`);
      continue;
    }
    await stopServer(start.running.child);
    log(
      `  ✓ ${server.label.padEnd(16)} ${suite.checks.filter((check) => appliesTo(check, server.id)).length} checks passed, ready in ${fmtInt(start.running.startupMs)} ms` +
        (start.warnings.length ? ` (warnings: ${start.warnings.join("; ")})` : ""),
    );
  }

  // 2. Interleaved rounds. Every server of a round is started (and checked) first and stays up, idle
  // while the others are loaded; then each endpoint is loaded on every server in turn (order
  // rotated each round). Two servers' runs of one endpoint are thus seconds apart, not a whole
  // server's turn, so a machine whose speed drifts (a shared VM) moves them together.
  const measured = servers.filter((s) => outcomes.get(s.id)?.status === "measured");
  for (let round = 1; round <= config.rounds; round++) {
    const shift = (round - 1) % Math.max(1, measured.length);
    const order = [...measured.slice(shift), ...measured.slice(0, shift)];
    log(`\nround ${round}/${config.rounds}`);
    const up: { server: ServerDef; outcome: ServerOutcome; running: Running; parts: string[] }[] = [];
    for (const server of order) {
      const outcome = outcomes.get(server.id);
      if (!outcome) continue;
      const start = await startChecked(server, outcome, suite, config, serverCpu);
      if (start.kind === "not started") {
        log(`  ${server.label}: failed to start this round — ${start.error}`);
        continue;
      }
      if (start.kind === "wrong answers") {
        const reason = `failed correctness checks: ${start.failures.slice(0, 3).join("; ")}`;
        outcome.roundFailures.push({ round, reason });
        log(`  ${server.label.padEnd(16)} not measured this round — ${reason}`);
        continue;
      }
      const { running } = start;
      up.push({ server, outcome, running, parts: [`up in ${fmtInt(running.startupMs)} ms`] });
    }
    try {
      for (const endpoint of suite.endpoints) {
        for (const { server, outcome, running, parts } of up) {
          if (!appliesTo(endpoint, server.id)) continue;
          try {
            const sample = await measure(endpoint, running, round, config, generator, loadCpu);
            outcome.endpoints[endpoint.id]?.push(sample);
            const bad = sample.non2xx + sample.errors + sample.timeouts + sample.wrongBody;
            parts.push(
              `${endpoint.id} ${fmtInt(sample.rps)}/s` +
                (bad ? ` (${bad} failed responses!)` : "") +
                (sample.warmupFailed ? ` (${sample.warmupFailed} failed in warm-up!)` : "") +
                (sample.wrongBodySample === null ? "" : ` (first wrong body: ${sample.wrongBodySample})`),
            );
          } catch (error) {
            parts.push(`${endpoint.id}: load failed: ${(error as Error).message}`);
          }
        }
      }
    } finally {
      for (const { server, outcome, running, parts } of up) {
        const hwm = procStatusKb(running.pid, "VmHWM");
        if (hwm !== null) outcome.peakRssMB.push(hwm / 1024);
        await stopServer(running.child);
        log(`  ${server.label.padEnd(16)} ${parts.join(", ")}`);
      }
    }
  }

  // 3. Summary
  const summary = summarize(servers, suite.endpoints, outcomes);
  log(`\n${renderReport(suite, summary, outcomes, config, generator)}`);
  if (quietWaits.ms > 0 || noisyRetries.count > 0) {
    log(
      `\nbusy machine: waited ${(quietWaits.ms / 1000).toFixed(1)} s for other processes to calm down, ` +
        `re-ran ${noisyRetries.count} disturbed measurement(s)`,
    );
  }
  log(`\ntotal time ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  const resultsDir = join(BENCH_DIR, "results");
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${suite.id}-${machine.date.replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        machine,
        config: { ...config, pinned: canPin, serverCpu, loadCpu, loadGenerator: generator },
        endpoints: suite.endpoints,
        summary,
        servers: [...outcomes.values()],
      },
      null,
      2,
    )}\n`,
  );
  log(`results written to ${relative(ROOT_DIR, file)}`);
}

/** Fewer same-round ratios than this get no interval: resampling a handful is narrower than the truth. */
const MIN_ROUNDS_FOR_INTERVAL = 8;

function summarize(
  servers: ServerDef[],
  endpoints: EndpointDef[],
  outcomes: Map<string, ServerOutcome>,
): Summary {
  const summary: Summary = {};
  for (const server of servers) {
    const outcome = outcomes.get(server.id);
    if (outcome?.status !== "measured") continue;
    const medians: Record<string, EndpointSummary> = {};
    for (const endpoint of endpoints) {
      // a run with failed responses measured something else than the endpoint: left out
      const all = outcome.endpoints[endpoint.id] ?? [];
      const samples = all.filter((s) => failedResponses(s) === 0);
      if (samples.length === 0) continue;
      const rps = samples.map((s) => s.rps);
      const med = median(rps);
      medians[endpoint.id] = {
        rps: med,
        spreadPct: med > 0 ? ((Math.max(...rps) - Math.min(...rps)) / med) * 100 : 0,
        p99Ms: median(samples.map((s) => s.p99Ms)),
        p50Ms: median(samples.map((s) => s.p50Ms)),
        rssMB: median(samples.flatMap((s) => (s.rssMB === null ? [] : [s.rssMB]))),
        serverCpuPct: median(samples.flatMap((s) => (s.serverCpuPct === null ? [] : [s.serverCpuPct]))),
        loadCpuPct: median(samples.map((s) => s.loadCpuPct)),
        otherCpuPct: median(samples.flatMap((s) => (s.otherCpuPct === null ? [] : [s.otherCpuPct]))),
        samples: samples.length,
        excluded: all.length - samples.length,
      };
    }
    summary[server.id] = {
      startupMs: median(outcome.startupMs),
      peakRssMB: median(outcome.peakRssMB),
      endpoints: medians,
    };
  }
  const mine = outcomes.get("unruffled");
  for (const endpoint of endpoints) {
    const entry = summary.unruffled?.endpoints[endpoint.id];
    if (mine === undefined || entry === undefined) continue;
    entry.perRound = {};
    entry.perRoundInterval = {};
    for (const server of servers) {
      const peer = outcomes.get(server.id);
      if (server.id === "unruffled" || peer === undefined) continue;
      const ratios = roundRatios(mine.endpoints[endpoint.id] ?? [], peer.endpoints[endpoint.id] ?? []);
      if (ratios.length === 0) continue;
      entry.perRound[server.id] = median(ratios);
      if (ratios.length >= MIN_ROUNDS_FOR_INTERVAL)
        entry.perRoundInterval[server.id] = medianInterval(ratios);
    }
    if (endpoint.baseline !== undefined) {
      const ratios = roundRatios(mine.endpoints[endpoint.id] ?? [], mine.endpoints[endpoint.baseline] ?? []);
      if (ratios.length > 0) {
        entry.overBaseline = {
          ratio: median(ratios),
          interval: ratios.length >= MIN_ROUNDS_FOR_INTERVAL ? medianInterval(ratios) : undefined,
        };
      }
    }
  }
  return summary;
}

/** unruffled's req/s over a peer's in each round where both were measured without failures. */
function roundRatios(mine: Sample[], peer: Sample[]): number[] {
  const ratios: number[] = [];
  for (const sample of mine) {
    const other = peer.find((candidate) => candidate.round === sample.round);
    if (other === undefined || failedResponses(sample) > 0 || failedResponses(other) > 0) continue;
    if (other.rps > 0) ratios.push(sample.rps / other.rps);
  }
  return ratios;
}

function renderReport(
  suite: Suite,
  summary: Summary,
  outcomes: Map<string, ServerOutcome>,
  config: Config,
  generator: LoadGenerator,
): string {
  const out: string[] = [];
  const label = (id: string) => outcomes.get(id)?.label ?? id;
  const peers = suite.servers.map((s) => s.id).filter((id) => id !== "unruffled");
  const uf = summary.unruffled;
  let loadBound = false;
  let disturbed = false;

  for (const endpoint of suite.endpoints) {
    out.push(`${endpoint.label}${endpoint.validated ? "  (validated)" : ""}`);
    const raw = summary.raw?.endpoints[endpoint.id];
    const rows: string[][] = [];
    for (const [id, entry] of Object.entries(summary)) {
      const e = entry.endpoints[endpoint.id];
      if (!e) continue;
      if (e.loadCpuPct >= 95) loadBound = true;
      if (e.otherCpuPct >= NOISY_PCT) disturbed = true;
      rows.push([
        label(id),
        fmtInt(e.rps),
        `${fmt(e.spreadPct, 0)}%`,
        fmt(e.p50Ms),
        fmt(e.p99Ms),
        fmt(e.rssMB, 1),
        raw ? ratio(e.rps, raw.rps) : "-",
        `${fmt(e.serverCpuPct, 0)}%`,
        `${fmt(e.loadCpuPct, 0)}%`,
        `${fmt(e.otherCpuPct, 0)}%`,
        e.excluded ? `${e.excluded} run(s) with errors left out` : "",
      ]);
    }
    out.push(
      table(
        [
          "framework",
          "req/s",
          "spread",
          "p50 ms",
          "p99 ms",
          "RSS MB",
          "vs raw",
          "server CPU",
          "load CPU",
          "other CPU",
          "",
        ],
        rows,
      ),
    );
    const ue = uf?.endpoints[endpoint.id];
    if (ue) {
      const parts = peers.flatMap((peer) => {
        const pe = summary[peer]?.endpoints[endpoint.id];
        const paired = ue.perRound?.[peer];
        return pe
          ? [
              `${label(peer)} ${ratio(ue.rps, pe.rps)}${paired === undefined ? "" : ` (per round ${fmt(paired)}×)`}`,
            ]
          : [];
      });
      out.push(`  unruffled req/s vs: ${parts.join(" · ")}`);
    }
    out.push("");
  }

  out.push(`Start-up (spawn → first 200 on ${suite.readyPath}, median of every start) and peak RSS`);
  out.push(
    table(
      ["framework", "start-up ms", "peak RSS MB", "vs raw"],
      Object.entries(summary).map(([id, entry]) => [
        label(id),
        fmtInt(entry.startupMs),
        fmt(entry.peakRssMB, 1),
        summary.raw ? ratio(entry.startupMs, summary.raw.startupMs) : "-",
      ]),
    ),
  );

  const skipped = [...outcomes.values()].filter((o) => o.status === "skipped");
  if (skipped.length > 0) {
    out.push("\nSkipped");
    for (const o of skipped) out.push(`  ${o.label}: ${o.reason}`);
  }
  const partial = [...outcomes.values()].filter((o) => o.roundFailures.length > 0);
  if (partial.length > 0) {
    out.push("\nNot measured in some rounds (medians over the other rounds)");
    for (const o of partial) {
      for (const f of o.roundFailures) out.push(`  ${o.label}, round ${f.round}: ${f.reason}`);
    }
  }
  const warned = [...outcomes.values()].filter((o) => o.warnings.length > 0);
  if (warned.length > 0) {
    out.push("\nCorrectness warnings (status differs from the shared rule, input still refused)");
    for (const o of warned) out.push(`  ${o.label}: ${o.warnings.join("; ")}`);
  }

  out.push("\nTargets for unruffled (informative, not asserted)");
  out.push(
    ...(summary.unruffled
      ? suite.targets(summary)
      : ["  n/a — unruffled was not measured (skipped or not selected)"]),
  );

  out.push("\nNotes");
  out.push(
    `  req/s and latencies: median over ${config.rounds} interleaved round(s); spread = (max − min) / median of req/s.`,
  );
  out.push(
    "  per round: the median over the rounds of unruffled's req/s over the peer's in the same round (runs\n" +
      "    seconds apart), which the machine's drift between rounds does not move; the targets use it.\n" +
      `    95 %: a bootstrap interval of that median (from ${MIN_ROUNDS_FOR_INTERVAL} rounds); a target inside it is a tie\n` +
      "    that another run may settle the other way.",
  );
  out.push("  RSS MB: server VmRSS right after that endpoint's load; peak RSS: VmHWM at the end of a round.");
  out.push(
    generator === "wrk"
      ? `  load generator: wrk, 1 thread, ${config.connections} connections; latencies exact to 1 µs. Failed responses\n` +
          "    (a run with any is left out): socket errors, timeouts, status ≥ 400 in the measured run, any non-2xx\n" +
          "    in its warm-up."
      : `  load generator: autocannon, ${config.connections} connections (wrk, when installed, saturates far later);\n` +
          "    failed responses (a run with any is left out): socket errors, timeouts, any non-2xx.",
  );
  const checked = suite.endpoints.filter((e) => e.bodyIncludes !== undefined);
  for (const marker of new Set(checked.map((e) => e.bodyIncludes))) {
    const ids = checked.filter((e) => e.bodyIncludes === marker).map((e) => e.id);
    out.push(
      `  ${ids.join(", ")}: every answer under load must contain ${marker} (refusals are HTTP 200 here), else\n` +
        "    it counts as a failed response.",
    );
  }
  out.push(
    "  server/load/other CPU: CPU time during the measured run, % of one core (user + kernel); other = the\n" +
      "    rest of the machine (kernel loopback work included).",
  );
  if (loadBound) {
    out.push(
      "  ⚠ the load generator used ≥95% of its core on some runs: those numbers are a floor for the\n" +
        "    server, and ratios between the fastest servers are compressed.",
    );
  }
  if (disturbed) {
    out.push(
      `  ⚠ other processes used ≥${NOISY_PCT}% of a core during some runs: the machine was not quiet, expect noise\n` +
        "    (compare the spread column; re-run on an idle machine for conclusions).",
    );
  }
  if (config.quick) out.push("  --quick: smoke run, too short for conclusions.");
  return out.join("\n");
}

await main();
