// Side-by-side benchmark: starts the servers of a suite one at a time, checks that each answers the
// suite's endpoints correctly (and rejects invalid input), then loads them from a second process
// (bench/load.ts: wrk when installed, else autocannon) in interleaved rounds, each server warmed up
// until it is steady, and prints a table. The suites (bench/suites/) say what is measured; this
// file is the machinery (options: run-config.ts; the machine: run-machine.ts; medians and ratios:
// run-summary.ts; a round's lines: run-round-line.ts; the report: run-report.ts and run-anchor.ts).
//
//   npm run bench                    frameworks: five servers, in-memory endpoints (about 30 minutes on 2 cores)
//   npm run bench:enrollment         enrollment: the enrollment service on SQLite, three servers
//   npm run bench -- --quick         smoke run (about 3 minutes)
//   npm run bench -- --help          every option
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, relative } from "node:path";
import type { LoadGenerator } from "./load.ts";
import {
  BENCH_DIR,
  hasTaskset,
  procStatusKb,
  ROOT_DIR,
  type Running,
  stopServer,
  wrkVersion,
} from "./processes.ts";
import { previousRun } from "./run-anchor.ts";
import { readConfig, SUITES } from "./run-config.ts";
import { machineInfo, noisyRetries, quietWaits } from "./run-machine.ts";
import { measure, startChecked } from "./run-measure.ts";
import { poolRuns, type SavedRun } from "./run-pool.ts";
import { renderReport } from "./run-report.ts";
import { roundLine } from "./run-round-line.ts";
import { type Sample, type ServerOutcome, summarize } from "./run-summary.ts";
import { appliesTo, type ServerDef, type Suite } from "./suites/suite.ts";
import { fmtInt } from "./text-table.ts";

/** `--from FILE[,FILE…]`: the report of finished runs, made again from their results files, pooled. */
function reportAgain(files: string[]): void {
  const saved = poolRuns(
    files.map((file) => ({ file, run: JSON.parse(readFileSync(file, "utf8")) as SavedRun })),
  );
  const whole: Suite = SUITES[saved.config.suite];
  const suite: Suite = { ...whole, endpoints: saved.endpoints };
  const servers = whole.servers.filter((s) => saved.servers.some((o) => o.id === s.id));
  const outcomes = new Map(saved.servers.map((o) => [o.id, o]));
  const summary = summarize(servers, suite.endpoints, outcomes, saved.config);
  // poolRuns counts the rounds that ran (`--budget` may have cut a run short) as the run's rounds.
  process.stdout.write(
    `${files.join("\n")}\n\n${renderReport(suite, summary, outcomes, saved.config, saved.config.loadGenerator, null)}\n`,
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
  // rotated each round; the endpoints' order reversed every other round). Two servers' runs of one endpoint are thus seconds apart, not a whole
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
      // The endpoints run in the suite's order, and backwards every other round: a route judged
      // against another of the same server (limited against hello, secure against list) is not
      // always the one measured second.
      const endpoints = round % 2 === 1 ? suite.endpoints : [...suite.endpoints].reverse();
      for (const endpoint of endpoints) {
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
