// Side-by-side benchmark: starts the servers of a suite one at a time, checks that each answers the
// suite's endpoints correctly (and rejects invalid input), then loads them from a second process
// (bench/load.ts: wrk when installed, else autocannon) in interleaved rounds, each server warmed up
// until it is steady, and prints a table. The suites (bench/suites/) say what is measured; this
// file is the machinery (options: run-config.ts; medians and ratios: run-summary.ts; a round's
// lines: run-round-line.ts; the report: run-report.ts).
//
//   npm run bench                    frameworks: five servers, in-memory endpoints (about 30 minutes on 2 cores)
//   npm run bench:enrollment         enrollment: the enrollment service on SQLite, three servers
//   npm run bench -- --quick         smoke run (about 3 minutes)
//   npm run bench -- --help          every option
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, relative } from "node:path";
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
  type RunSettings,
  sleep,
  startServer,
  stopServer,
  wrkVersion,
} from "./processes.ts";
import { type Config, NOISY_PCT, readConfig, SUITES } from "./run-config.ts";
import { fmtInt, type PreviousRun, renderReport } from "./run-report.ts";
import { roundLine } from "./run-round-line.ts";
import { type Sample, type ServerOutcome, summarize } from "./run-summary.ts";
import { appliesTo, type EndpointDef, type ServerDef, type Suite, type Summary } from "./suites/suite.ts";

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

/** The latest results file of this suite, written before this run, or null. */
function previousRun(suiteId: string): PreviousRun | null {
  const dir = join(BENCH_DIR, "results");
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.startsWith(`${suiteId}-`) && name.endsWith(".json"))
        .sort()
    : [];
  const last = files.at(-1);
  if (last === undefined) return null;
  try {
    const saved = JSON.parse(readFileSync(join(dir, last), "utf8")) as {
      machine: { date: string };
      summary: Summary;
    };
    return { file: join("bench/results", last), date: saved.machine.date, summary: saved.summary };
  } catch {
    return null;
  }
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
  const settings: RunSettings = { ...config, warmupMax: Math.max(config.warmup, config.warmupMax) };
  const spec = loadSpec(endpoint, running, settings, generator);
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
    requestsPerCpuS: result.requestsPerCpuS,
    warmupS: warm?.seconds ?? 0,
    steady: warm?.steady ?? true,
    warmupWindows: warm?.windows.map((w) => w.requestsPerCpuS ?? w.rps) ?? [],
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

/** `--from FILE`: the report of a finished run, made again from its results file. */
function reportAgain(file: string): void {
  const saved = JSON.parse(readFileSync(file, "utf8")) as {
    config: Config & { roundsRun?: number; loadGenerator: LoadGenerator };
    endpoints: EndpointDef[];
    servers: ServerOutcome[];
  };
  const whole: Suite = SUITES[saved.config.suite];
  const suite: Suite = { ...whole, endpoints: saved.endpoints };
  const servers = whole.servers.filter((s) => saved.servers.some((o) => o.id === s.id));
  const outcomes = new Map(saved.servers.map((o) => [o.id, o]));
  const summary = summarize(servers, suite.endpoints, outcomes, saved.config);
  const rounds = saved.config.roundsRun ?? saved.config.rounds;
  const shown = { ...saved.config, rounds };
  process.stdout.write(
    `${file}\n\n${renderReport(suite, summary, outcomes, shown, saved.config.loadGenerator, null)}\n`,
  );
}

async function main(): Promise<void> {
  const config = readConfig(process.argv.slice(2));
  if (config.from !== null) return reportAgain(config.from);
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
      `a warm-up of ${config.warmup}–${config.warmupMax}s until steady (last ${config.steadyWindows} 1 s windows within ` +
      `${config.steadyPct} % in req/CPU-s) + ${config.duration}s measured each, ${config.connections} connections` +
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
  let roundsRun = 0;
  for (let round = 1; round <= config.rounds; round++) {
    const minutes = (performance.now() - t0) / 60_000;
    if (config.budgetMinutes !== null && minutes >= config.budgetMinutes) {
      log(`
budget of ${config.budgetMinutes} minutes reached: ${roundsRun} of ${config.rounds} rounds run`);
      break;
    }
    roundsRun = round;
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
        const thisRound: { id: string; sample: Sample }[] = [];
        for (const { server, outcome, running, parts } of up) {
          if (!appliesTo(endpoint, server.id)) continue;
          try {
            const sample = await measure(endpoint, running, round, config, generator, loadCpu);
            outcome.endpoints[endpoint.id]?.push(sample);
            thisRound.push({ id: server.id, sample });
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
        log(roundLine(endpoint, thisRound, outcomes, config));
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
  const summary = summarize(servers, suite.endpoints, outcomes, config);
  const previous = previousRun(suite.id);
  log(`\n${renderReport(suite, summary, outcomes, { ...config, rounds: roundsRun }, generator, previous)}`);
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
        config: { ...config, roundsRun, pinned: canPin, serverCpu, loadCpu, loadGenerator: generator },
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

await main();
