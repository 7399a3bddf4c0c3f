// Load-generator worker: runs in its own process (pinned to its own core by bench/run.ts), fires
// autocannon at one endpoint of one server (warm-up, then a measured run), and prints one JSON line.
//
//   node bench/load.ts '{"url":"http://127.0.0.1:3000/hello","method":"GET",...}'
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export type LoadSpec = {
  url: string;
  method: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  connections: number;
  pipelining: number;
  /** seconds of warm-up (results thrown away); 0 for none */
  warmup: number;
  /** seconds of measurement */
  duration: number;
  /** hard cap on the number of requests of the measured run */
  maxRequests: number;
  /** pid of the server, to read its CPU time from /proc during the measured run */
  serverPid?: number;
};

export type LoadResult = {
  requests: number;
  rps: number;
  durationS: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU time of the server during the measured run, as % of one core (null without /proc) */
  serverCpuPct: number | null;
  /** CPU time of this load generator during the measured run, as % of one core */
  loadCpuPct: number;
  /**
   * CPU time of everything else on the machine during the measured run (kernel work for loopback
   * included), as % of one core: a high value means the numbers are disturbed (null without /proc)
   */
  otherCpuPct: number | null;
};

// autocannon ships no type declarations: describe the small part used here.
type AutocannonOptions = {
  url: string;
  method: string;
  body?: string;
  headers?: Record<string, string>;
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
  "2xx": number;
  requests: { total: number; average: number };
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

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

function cpuTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // fields after "(comm)": state is field 3, utime field 14, stime field 15
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
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

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

function run(spec: LoadSpec, seconds: number, record: boolean) {
  let latencies = new Float64Array(record ? 1 << 16 : 0);
  let count = 0;
  return new Promise<{ result: AutocannonResult; latencies: Float64Array }>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        method: spec.method,
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...(spec.headers === undefined ? {} : { headers: spec.headers }),
        connections: spec.connections,
        pipelining: spec.pipelining,
        duration: seconds,
        maxOverallRequests: spec.maxRequests,
        timeout: 10,
      },
      (error, result) => {
        if (error) reject(error);
        else resolve({ result, latencies: latencies.subarray(0, count) });
      },
    );
    if (record) {
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
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? "{}") as LoadSpec;
  if (spec.warmup > 0) await run(spec, spec.warmup, false);

  const serverBefore = spec.serverPid === undefined ? null : cpuTicks(spec.serverPid);
  const selfBefore = cpuTicks(process.pid);
  const machineBefore = machineBusyTicks();
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const { result, latencies } = await run(spec, spec.duration, true);
  const wallMs = performance.now() - wallBefore;
  const cpu = process.cpuUsage(cpuBefore);
  const serverAfter = spec.serverPid === undefined ? null : cpuTicks(spec.serverPid);
  const selfAfter = cpuTicks(process.pid);
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

  latencies.sort();
  let sum = 0;
  for (const value of latencies) sum += value;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  const output: LoadResult = {
    requests: result.requests.total,
    rps: result.duration > 0 ? result.requests.total / result.duration : 0,
    durationS: result.duration,
    latencyMs: {
      mean: round(latencies.length ? sum / latencies.length : 0),
      p50: round(percentile(latencies, 0.5)),
      p90: round(percentile(latencies, 0.9)),
      p99: round(percentile(latencies, 0.99)),
      max: round(latencies.length ? (latencies[latencies.length - 1] ?? 0) : 0),
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    serverCpuPct: serverBefore === null || serverAfter === null ? null : pct(serverAfter - serverBefore),
    loadCpuPct: Math.round((((cpu.user + cpu.system) / 1000) * 100) / wallMs),
    otherCpuPct,
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

await main();
