// Load-generator worker: runs in its own process (pinned to its own core by bench/run.ts), fires
// requests at one endpoint of one server (warm-up, then a measured run), and prints one JSON line.
// Two generators:
//   wrk         (C, `apt-get install wrk`): spawned as a child of this process, so it inherits the
//               pinning; a generated Lua script sets the method/body/headers and prints the results
//               (latency percentiles, errors, status codes) as JSON from its done() hook
//   autocannon  (JavaScript, in this process): the fallback; about 3× less throughput per core
//
//   node bench/load.ts '{"generator":"wrk","url":"http://127.0.0.1:3000/hello","method":"GET",...}'
//
// With `pairBody`, every request sends a new body (both generators); with `bodyIncludes`, every
// answer's body is checked.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { join } from "node:path";
import { captureOutput } from "process-support";

export type LoadGenerator = "wrk" | "autocannon";

/**
 * A new JSON body for every request: request i (from 0) of a run sends
 * `{"<f0>": (s + i) % c0 + 1, "<f1>": floor((s + i) / c0) % c1 + 1}`, a cycle through every pair of
 * 1..c0 × 1..c1. s is `start` in the warm-up and `start` + half the cycle in the measured run, so the
 * two never send the same pair as long as each sends fewer requests than half the cycle.
 */
export type PairBody = { fields: [string, string]; counts: [number, number]; start: number };

export type LoadSpec = {
  generator: LoadGenerator;
  url: string;
  method: "GET" | "POST";
  body?: string;
  /** a new body for every request, instead of `body` */
  pairBody?: PairBody;
  /** every response body must contain this, else the response counts as failed (`wrongBody`) */
  bodyIncludes?: string;
  headers?: Record<string, string>;
  connections: number;
  pipelining: number;
  /** seconds of warm-up (results thrown away, but failed responses reported); 0 for none */
  warmup: number;
  /** seconds of measurement */
  duration: number;
  /** hard cap on the number of requests of the measured run (autocannon only: wrk is bounded in time) */
  maxRequests: number;
  /** pid of the server, to read its CPU time from /proc during the measured run */
  serverPid?: number;
};

/** Responses of one run that were not a success. */
type Failures = {
  /** responses with a status outside 2xx (wrk's measured run: ≥ 400, see runWrk) */
  non2xx: number;
  /** socket errors: connect, read, write (and parse errors for autocannon) */
  errors: number;
  /** requests without a response in 10 s */
  timeouts: number;
  /** responses whose body lacks `bodyIncludes` (0 without it) */
  wrongBody: number;
  /** the start of the first such body, to tell what the server answered instead (null when none) */
  wrongBodySample: string | null;
};

/** How much of the first wrong body is kept: enough for an error envelope. */
const SAMPLE_BYTES = 300;

export type LoadResult = Failures & {
  generator: LoadGenerator;
  requests: number;
  rps: number;
  durationS: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  /** status code → responses, for the measured run (null when the generator did not count them) */
  statusCounts: Record<string, number> | null;
  /** the warm-up's failures and status codes (null without warm-up): a server failing there is suspect too */
  warmup: (Failures & { requests: number; statusCounts: Record<string, number> | null }) | null;
  /** CPU time of the server during the measured run, as % of one core (null without /proc) */
  serverCpuPct: number | null;
  /** CPU time of the load generator (this process and its children, i.e. wrk) during the measured run, % of one core */
  loadCpuPct: number;
  /**
   * CPU time of everything else on the machine during the measured run (kernel work for loopback
   * included), as % of one core: a high value means the numbers are disturbed (null without /proc)
   */
  otherCpuPct: number | null;
};

/** One run (warm-up or measured) of a generator. */
type RunOutcome = Failures & {
  requests: number;
  durationS: number;
  latencyMs: LoadResult["latencyMs"];
  statusCounts: Record<string, number> | null;
};

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux
const TIMEOUT_S = 10;

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

const round3 = (value: number) => Math.round(value * 1000) / 1000;

// ---------------------------------------------------------------------------------------------
// Rotating bodies (PairBody)

/** The cycle index of a run's first request: the measured run starts half a cycle after the warm-up. */
function firstPair(pair: PairBody, measured: boolean): number {
  return pair.start + (measured ? Math.floor((pair.counts[0] * pair.counts[1]) / 2) : 0);
}

/** The body of the request at this index of the cycle (for wrk, the same formula in Lua). */
function pairBodyAt(pair: PairBody, index: number): string {
  const [first, second] = pair.fields;
  const [count, secondCount] = pair.counts;
  return JSON.stringify({
    [first]: (index % count) + 1,
    [second]: (Math.floor(index / count) % secondCount) + 1,
  });
}

// ---------------------------------------------------------------------------------------------
// autocannon

// autocannon ships no type declarations: describe the small part used here.
type AutocannonRequest = Record<string, unknown>;
type AutocannonOptions = {
  url: string;
  method: string;
  body?: string;
  headers?: Record<string, string>;
  /** called before every request of a connection; what it returns is sent */
  requests?: { setupRequest: (request: AutocannonRequest) => AutocannonRequest }[];
  /** false counts the response in `mismatches` */
  verifyBody?: (body: string) => boolean;
  connections: number;
  pipelining: number;
  duration: number;
  maxOverallRequests?: number;
  timeout: number;
};
type AutocannonResult = {
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  "2xx": number;
  requests: { total: number; average: number };
  statusCodeStats?: Record<string, { count: number }>;
};
type Instance = {
  on(
    event: "response",
    listener: (client: unknown, status: number, bytes: number, responseTimeMs: number) => void,
  ): void;
};
type Autocannon = (
  options: AutocannonOptions,
  callback: (error: Error | null, result: AutocannonResult) => void,
) => Instance;

/** autocannon's requests option that sends every request with the next body of the cycle. */
function pairRequests(pair: PairBody, measured: boolean): AutocannonOptions["requests"] {
  let index = firstPair(pair, measured);
  return [{ setupRequest: (request) => ({ ...request, body: pairBodyAt(pair, index++) }) }];
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

async function runAutocannon(spec: LoadSpec, seconds: number, measured: boolean): Promise<RunOutcome> {
  // loaded only when used: the wrk path does not need it
  const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;
  let latencies = new Float64Array(measured ? 1 << 16 : 0);
  let count = 0;
  const marker = spec.bodyIncludes;
  let wrongBodySample: string | null = null;
  const verifyBody = (body: string) => {
    const ok = marker === undefined || body.includes(marker);
    if (!ok) wrongBodySample ??= body.slice(0, SAMPLE_BYTES);
    return ok;
  };
  const result = await new Promise<AutocannonResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        method: spec.method,
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...(spec.pairBody === undefined ? {} : { requests: pairRequests(spec.pairBody, measured) }),
        ...(marker === undefined ? {} : { verifyBody }),
        ...(spec.headers === undefined ? {} : { headers: spec.headers }),
        connections: spec.connections,
        pipelining: spec.pipelining,
        duration: seconds,
        maxOverallRequests: spec.maxRequests,
        timeout: TIMEOUT_S,
      },
      (error, result) => {
        if (error) reject(error);
        else resolve(result);
      },
    );
    if (measured) {
      // autocannon's own histogram has a 1 ms resolution; keep every latency for exact percentiles
      instance.on("response", (_client, _status, _bytes, responseTime) => {
        if (count === latencies.length) {
          const grown = new Float64Array(latencies.length * 2);
          grown.set(latencies);
          latencies = grown;
        }
        latencies[count++] = responseTime;
      });
    }
  });
  const sorted = latencies.subarray(0, count).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  const statusCounts = result.statusCodeStats
    ? Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]))
    : null;
  return {
    requests: result.requests.total,
    durationS: result.duration,
    latencyMs: {
      mean: round3(sorted.length ? sum / sorted.length : 0),
      p50: round3(percentile(sorted, 0.5)),
      p90: round3(percentile(sorted, 0.9)),
      p99: round3(percentile(sorted, 0.99)),
      max: round3(sorted.length ? (sorted[sorted.length - 1] ?? 0) : 0),
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    wrongBody: result.mismatches,
    wrongBodySample,
    statusCounts,
  };
}

// ---------------------------------------------------------------------------------------------
// wrk

/** A Lua string literal holding exactly these UTF-8 bytes (every byte as a decimal escape). */
function luaString(text: string): string {
  return `"${[...Buffer.from(text, "utf8")].map((byte) => `\\${byte}`).join("")}"`;
}

const RESULT_MARK = "BENCH_WRK_RESULT ";

function wrkScript(spec: LoadSpec, measured: boolean): string {
  const perResponse = !measured || spec.bodyIncludes !== undefined;
  const lines = ["-- generated by bench/load.ts", `wrk.method = ${luaString(spec.method)}`];
  if (spec.body !== undefined) lines.push(`wrk.body = ${luaString(spec.body)}`);
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  }
  lines.push(
    "local threads = {}",
    "function setup(thread) table.insert(threads, thread) end",
    "function init(args)",
    "  statuses = {}",
    "  wrong = 0",
  );
  if (spec.pairBody) lines.push(`  pair = ${firstPair(spec.pairBody, measured)}`);
  else if (spec.pipelining > 1) {
    lines.push(
      "  local batch = {}",
      `  for i = 1, ${spec.pipelining} do batch[i] = wrk.format() end`,
      "  pipelined = table.concat(batch)",
    );
  }
  lines.push("end");
  if (spec.pairBody) lines.push(...pairRequestFunction(spec.pairBody, spec.pipelining));
  else if (spec.pipelining > 1) lines.push("function request() return pipelined end");
  if (perResponse) {
    lines.push(
      "function response(status, headers, body)",
      "  statuses[status] = (statuses[status] or 0) + 1",
    );
    if (spec.bodyIncludes !== undefined) {
      lines.push(
        `  if not string.find(body, ${luaString(spec.bodyIncludes)}, 1, true) then`,
        "    wrong = wrong + 1",
        `    if not sample then sample = string.sub(body, 1, ${SAMPLE_BYTES}) end`,
        "  end",
      );
    }
    lines.push("end");
  }
  lines.push(
    "function done(summary, latency, requests)",
    "  local counts = {}",
    "  local wrong = 0",
    '  local sample = ""',
    "  for _, thread in ipairs(threads) do",
    '    local s = thread:get("statuses")',
    "    if s then for code, n in pairs(s) do counts[code] = (counts[code] or 0) + n end end",
    '    wrong = wrong + (thread:get("wrong") or 0)',
    '    if sample == "" then sample = thread:get("sample") or "" end',
    "  end",
    "  local parts = {}",
    "  for code, n in pairs(counts) do parts[#parts + 1] = string.format('\"%d\":%.0f', code, n) end",
    "  local e = summary.errors",
    "  io.write(string.format(",
    `    '\\n${RESULT_MARK}{"requests":%.0f,"durationUs":%.0f,"bytes":%.0f,' ..`,
    '    \'"errors":{"connect":%.0f,"read":%.0f,"write":%.0f,"status":%.0f,"timeout":%.0f},\' ..',
    '    \'"latencyUs":{"mean":%.3f,"p50":%.0f,"p90":%.0f,"p99":%.0f,"max":%.0f},\' ..',
    // The sample goes out in hex: any bytes, no escaping to get right in Lua.
    `    '"wrongBody":%.0f,"wrongBodyHex":"%s","statuses":${perResponse ? "{%s}" : "null%s"}}\\n',`,
    "    summary.requests, summary.duration, summary.bytes,",
    "    e.connect, e.read, e.write, e.status, e.timeout,",
    "    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,",
    "    wrong, (sample:gsub('.', function(c) return string.format('%02x', c:byte()) end)),",
    '    table.concat(parts, ",")))',
    "end",
  );
  return `${lines.join("\n")}\n`;
}

/**
 * A request() hook that sends the next pair of the cycle at every call (`pipelining` requests per
 * call). The counter lives in the thread's Lua state: unique because wrk runs one thread.
 */
function pairRequestFunction(pair: PairBody, pipelining: number): string[] {
  // the body as a Lua format string: the field names as JSON, with any % doubled
  const [first, second] = pair.fields.map((field) => JSON.stringify(field).replaceAll("%", "%%"));
  const [count, secondCount] = pair.counts;
  return [
    "function request()",
    "  local batch = {}",
    `  for k = 1, ${pipelining} do`,
    `    local body = string.format(${luaString(`{${first}:%d,${second}:%d}`)},`,
    `      pair % ${count} + 1, math.floor(pair / ${count}) % ${secondCount} + 1)`,
    "    pair = pair + 1",
    "    batch[k] = wrk.format(nil, nil, nil, body)",
    "  end",
    "  return table.concat(batch)",
    "end",
  ];
}

type WrkReport = {
  requests: number;
  durationUs: number;
  bytes: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: { mean: number; p50: number; p90: number; p99: number; max: number };
  wrongBody: number;
  wrongBodyHex: string;
  statuses: Record<string, number> | null;
};

let tempDir: string | null = null;
let wrkChild: ChildProcess | null = null;

function scriptFile(name: string): string {
  if (tempDir === null) {
    const dir = mkdtempSync(join(os.tmpdir(), "bench-wrk-"));
    tempDir = dir;
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.on(signal, () => {
        wrkChild?.kill("SIGKILL");
        process.exit(130);
      });
    }
  }
  return join(tempDir, name);
}

/**
 * wrk itself counts a response as a status error only when its status is ≥ 400 (3xx pass). The
 * script's response() hook counts every status code, so any non-2xx is caught; that hook costs wrk a
 * Lua call and a copy of the headers per response, so it is used in the warm-up, and in the measured
 * run only when `bodyIncludes` asks for every body to be checked. Otherwise the measured run relies
 * on wrk's ≥ 400 count (plus the correctness checks run at every start of a server, which require
 * the exact 200).
 */
async function runWrk(spec: LoadSpec, seconds: number, measured: boolean): Promise<RunOutcome> {
  const script = scriptFile(`${measured ? "measured" : "warmup"}.lua`);
  writeFileSync(script, wrkScript(spec, measured));
  // wrk takes whole seconds: a fractional duration is ended by SIGINT, after which wrk still reports
  // (its elapsed time is measured, so req/s stays right either way)
  const whole = Number.isInteger(seconds);
  const args = [
    "--threads",
    "1",
    "--connections",
    String(spec.connections),
    "--duration",
    `${Math.max(1, Math.ceil(seconds))}s`,
    "--timeout",
    `${TIMEOUT_S}s`,
    "--script",
    script,
    spec.url,
  ];
  const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
  wrkChild = child;
  const output = captureOutput(child);
  const stopTimer = whole ? null : setTimeout(() => child.kill("SIGINT"), seconds * 1000);
  const killTimer = setTimeout(() => child.kill("SIGKILL"), (seconds + TIMEOUT_S + 10) * 1000);
  const code = await new Promise<number | string | null>((resolve) => {
    child.on("exit", (exitCode, signal) => resolve(exitCode ?? signal));
    child.on("error", (error) => resolve(error.message));
  });
  if (stopTimer) clearTimeout(stopTimer);
  clearTimeout(killTimer);
  wrkChild = null;
  const line = output.stdout.split("\n").find((l) => l.startsWith(RESULT_MARK));
  if (code !== 0 || line === undefined) {
    const tail = `${output.stderr}\n${output.stdout}`
      .trim()
      .split("\n")
      .filter((l) => l.trim())
      .slice(-3)
      .join(" | ");
    throw new Error(`wrk failed (${code}): ${tail}`);
  }
  const report = JSON.parse(line.slice(RESULT_MARK.length)) as WrkReport;
  const ms = (us: number) => round3(us / 1000);
  let non2xx = report.errors.status;
  if (report.statuses) {
    non2xx = 0;
    for (const [status, n] of Object.entries(report.statuses)) {
      if (Number(status) < 200 || Number(status) > 299) non2xx += n;
    }
  }
  return {
    requests: report.requests,
    durationS: report.durationUs / 1e6,
    latencyMs: {
      mean: ms(report.latencyUs.mean),
      p50: ms(report.latencyUs.p50),
      p90: ms(report.latencyUs.p90),
      p99: ms(report.latencyUs.p99),
      max: ms(report.latencyUs.max),
    },
    non2xx,
    errors: report.errors.connect + report.errors.read + report.errors.write,
    timeouts: report.errors.timeout,
    wrongBody: report.wrongBody,
    wrongBodySample:
      report.wrongBodyHex === "" ? null : Buffer.from(report.wrongBodyHex, "hex").toString("utf8"),
    statusCounts: report.statuses,
  };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? "{}") as LoadSpec;
  const run = spec.generator === "wrk" ? runWrk : runAutocannon;

  let warmup: LoadResult["warmup"] = null;
  if (spec.warmup > 0) {
    const w = await run(spec, spec.warmup, false);
    warmup = {
      requests: w.requests,
      non2xx: w.non2xx,
      errors: w.errors,
      timeouts: w.timeouts,
      wrongBody: w.wrongBody,
      wrongBodySample: w.wrongBodySample,
      statusCounts: w.statusCounts,
    };
  }

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
    loadCpuPct: selfBefore === null || selfAfter === null ? 0 : pct(selfAfter - selfBefore),
    otherCpuPct,
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

await main();
