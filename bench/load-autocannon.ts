// autocannon, the fallback load generator (JavaScript, in the load process): one run of a spec.
import { createRequire } from "node:module";
import {
  firstPair,
  type LoadSpec,
  type PairBody,
  pairBodyAt,
  type RunOutcome,
  round3,
  SAMPLE_BYTES,
  TIMEOUT_S,
} from "./load-spec.ts";

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

export async function runAutocannon(spec: LoadSpec, seconds: number, measured: boolean): Promise<RunOutcome> {
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
