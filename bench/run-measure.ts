// One server of a round: started and checked (startChecked), and one endpoint measured on it
// (measure): a warm-up until steady and a measured run, re-run when other processes disturbed it.
import { join } from "node:path";
import { validate } from "./checks.ts";
import type { LoadGenerator, LoadResult } from "./load.ts";
import {
  BENCH_DIR,
  load,
  loadSpec,
  procStatusKb,
  type Running,
  type RunSettings,
  startServer,
  stopServer,
} from "./processes.ts";
import { type Config, NOISY_PCT } from "./run-config.ts";
import { noisyRetries, quietWaits, waitForQuiet } from "./run-machine.ts";
import type { Sample, ServerOutcome } from "./run-summary.ts";
import type { EndpointDef, ServerDef, Suite } from "./suites/suite.ts";

/** One endpoint of one running server: warm-up and measured run (re-run if disturbed), as a sample. */
export async function measure(
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
export type ServerStart =
  | { kind: "up"; running: Running; warnings: string[] }
  | { kind: "not started"; error: string }
  | { kind: "wrong answers"; failures: string[]; warnings: string[] };

/**
 * Starts a server and runs the suite's checks on it, the same way in pre-flight and in every round:
 * a server whose sources changed under it (the framework is written in this tree) must not be
 * measured while answering wrongly. Each start's time goes to `outcome.startupMs`.
 */
export async function startChecked(
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
      server.runtime === undefined ? {} : { runtime: server.runtime },
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
