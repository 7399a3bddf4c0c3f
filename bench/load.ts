// Load-generator worker: runs in its own process (pinned to its own core by bench/run.ts), fires
// requests at one endpoint of one server (a warm-up until the server is steady, then a measured
// run), and prints one JSON line. Two generators:
//   wrk         (C, `apt-get install wrk`; load-wrk.ts): spawned as a child of this process, so it
//               inherits the pinning; a generated Lua script sets the method/body/headers and prints
//               the results (latency percentiles, errors, status codes) as JSON from its done() hook
//   autocannon  (JavaScript, in this process; load-autocannon.ts): the fallback; about 3× less
//               throughput per core
//
//   node bench/load.ts '{"generator":"wrk","url":"http://127.0.0.1:3000/hello","method":"GET",...}'
//
// With `pairBody`, every request sends a new body (both generators); with `bodyIncludes`, every
// answer's body is checked.
import { readFileSync } from "node:fs";
import { runAutocannon } from "./load-autocannon.ts";
import type { LoadResult, LoadSpec, RunOutcome, WarmupWindow } from "./load-spec.ts";
import { runWrk } from "./load-wrk.ts";

export type {
  LoadGenerator,
  LoadResult,
  LoadSpec,
  PairBody,
  WarmupWindow,
} from "./load-spec.ts";

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

// ---------------------------------------------------------------------------------------------
// CPU accounting from /proc

/** utime + stime of a process, in clock ticks (and, for `self`, cutime + cstime of its reaped children). */
function cpuTicks(pid: number | "self", withChildren = false): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // fields after "(comm)": state is field 3, utime 14, stime 15, cutime 16, cstime 17
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const own = Number(fields[11]) + Number(fields[12]);
    return withChildren ? own + Number(fields[13]) + Number(fields[14]) : own;
  } catch {
    return null;
  }
}

/** Busy ticks of the whole machine (user, nice, system, irq, softirq, steal) from /proc/stat. */
function machineBusyTicks(): number | null {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
    const [user, nice, system, _idle, _iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Warm-up until steady

type Run = (spec: LoadSpec, seconds: number, measured: boolean) => Promise<RunOutcome>;

/** Whether the last `count` windows agree within `pct` percent (largest over smallest). */
function steadyWindows(values: number[], count: number, pct: number): boolean {
  if (values.length < count) return false;
  const last = values.slice(-count);
  const low = Math.min(...last);
  return low > 0 && Math.max(...last) / low - 1 <= pct / 100;
}

/**
 * A server is measured at its steady state, not while V8 is still compiling it: the warm-up runs
 * in 1-second windows (at least `warmup` seconds) until the last `steadyWindows` agree within
 * `steadyPct` % in requests per second of the server's CPU time, or `warmupMax` seconds have gone.
 * Requests per CPU-second, not req/s: a busy machine takes the core away from the server now and
 * then, which moves req/s but not what a request costs it. Without /proc, req/s decides.
 */
async function warmUp(spec: LoadSpec, run: Run): Promise<LoadResult["warmup"]> {
  if (spec.warmup <= 0) return null;
  const windows: WarmupWindow[] = [];
  const total = { requests: 0, non2xx: 0, errors: 0, timeouts: 0, wrongBody: 0 };
  let wrongBodySample: string | null = null;
  let statusCounts: Record<string, number> | null = null;
  let steady = false;
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  while (!steady && elapsed() < spec.warmupMax) {
    // a new pair at every request across the windows too: each starts past what the last sent
    const window =
      spec.pairBody === undefined
        ? spec
        : {
            ...spec,
            pairBody: {
              ...spec.pairBody,
              start:
                spec.pairBody.start + total.requests + windows.length * spec.connections * spec.pipelining,
            },
          };
    const before = spec.serverPid === undefined ? null : cpuTicks(spec.serverPid);
    const outcome = await run(window, 1, false);
    const after = spec.serverPid === undefined ? null : cpuTicks(spec.serverPid);
    const rps = outcome.durationS > 0 ? outcome.requests / outcome.durationS : 0;
    const cpuS = before === null || after === null ? 0 : (after - before) / CLOCK_TICKS_PER_SECOND;
    windows.push({ rps, requestsPerCpuS: cpuS > 0 ? outcome.requests / cpuS : null });
    for (const key of ["requests", "non2xx", "errors", "timeouts", "wrongBody"] as const)
      total[key] += outcome[key];
    wrongBodySample ??= outcome.wrongBodySample;
    for (const [code, n] of Object.entries(outcome.statusCounts ?? {})) {
      statusCounts ??= {};
      statusCounts[code] = (statusCounts[code] ?? 0) + n;
    }
    const perCpu = windows.map((w) => w.requestsPerCpuS);
    const series = perCpu.every((value) => value !== null) ? (perCpu as number[]) : windows.map((w) => w.rps);
    steady = elapsed() >= spec.warmup && steadyWindows(series, spec.steadyWindows, spec.steadyPct);
  }
  return { ...total, wrongBodySample, statusCounts, seconds: elapsed(), steady, windows };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? "{}") as LoadSpec;
  const run = spec.generator === "wrk" ? runWrk : runAutocannon;
  const warmup = await warmUp(spec, run);

  const serverBefore = spec.serverPid === undefined ? null : cpuTicks(spec.serverPid);
  const selfBefore = cpuTicks("self", true);
  const machineBefore = machineBusyTicks();
  const wallBefore = performance.now();
  const result = await run(spec, spec.duration, true);
  const wallMs = performance.now() - wallBefore;
  const serverAfter = spec.serverPid === undefined ? null : cpuTicks(spec.serverPid);
  // this process and its reaped children (wrk, already waited for once its exit is reported)
  const selfAfter = cpuTicks("self", true);
  const machineAfter = machineBusyTicks();
  const pct = (ticks: number) => Math.round(((ticks / CLOCK_TICKS_PER_SECOND) * 1000 * 100) / wallMs);
  let otherCpuPct: number | null = null;
  if (
    serverBefore !== null &&
    serverAfter !== null &&
    selfBefore !== null &&
    selfAfter !== null &&
    machineBefore !== null &&
    machineAfter !== null
  ) {
    const other = machineAfter - machineBefore - (serverAfter - serverBefore) - (selfAfter - selfBefore);
    otherCpuPct = Math.max(0, pct(other));
  }

  const output: LoadResult = {
    generator: spec.generator,
    requests: result.requests,
    rps: result.durationS > 0 ? result.requests / result.durationS : 0,
    durationS: result.durationS,
    latencyMs: result.latencyMs,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    wrongBody: result.wrongBody,
    wrongBodySample: result.wrongBodySample,
    statusCounts: result.statusCounts,
    warmup,
    serverCpuPct: serverBefore === null || serverAfter === null ? null : pct(serverAfter - serverBefore),
    requestsPerCpuS:
      serverBefore === null || serverAfter === null || serverAfter === serverBefore
        ? null
        : result.requests / ((serverAfter - serverBefore) / CLOCK_TICKS_PER_SECOND),
    loadCpuPct: selfBefore === null || selfAfter === null ? 0 : pct(selfAfter - selfBefore),
    otherCpuPct,
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

await main();
