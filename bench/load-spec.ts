// What a load run is told and what it reports (bench/load.ts runs it; load-wrk.ts and
// load-autocannon.ts drive the two generators), and the rotating bodies both generators send.

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
  /**
   * the shortest warm-up, in seconds (results thrown away, failed responses reported); 0 for none.
   * The warm-up goes on, in 1-second windows, until the server is steady (see `steadyPct`)
   */
  warmup: number;
  /** the longest warm-up, in seconds: a server not steady by then is measured and marked unsteady */
  warmupMax: number;
  /**
   * steady: the last `steadyWindows` 1-second windows of the warm-up agree within this many percent
   * (largest over smallest, minus 1) in requests per second of the server's CPU time
   */
  steadyPct: number;
  steadyWindows: number;
  /** seconds of measurement */
  duration: number;
  /** hard cap on the number of requests of the measured run (autocannon only: wrk is bounded in time) */
  maxRequests: number;
  /** pid of the server, to read its CPU time from /proc during the measured run */
  serverPid?: number;
};

/** Responses of one run that were not a success. */
export type Failures = {
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
export const SAMPLE_BYTES = 300;

export type LoadResult = Failures & {
  generator: LoadGenerator;
  requests: number;
  rps: number;
  durationS: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  /** status code → responses, for the measured run (null when the generator did not count them) */
  statusCounts: Record<string, number> | null;
  /** the warm-up's failures and status codes (null without warm-up): a server failing there is suspect too */
  warmup: (Failures & WarmupReport) | null;
  /** requests per second of the server's own CPU time in the measured run (null without /proc) */
  requestsPerCpuS: number | null;
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

/** One 1-second window of the warm-up: req/s, and requests per second of the server's CPU time. */
export type WarmupWindow = { rps: number; requestsPerCpuS: number | null };

export type WarmupReport = {
  requests: number;
  statusCounts: Record<string, number> | null;
  /** how long the warm-up went on */
  seconds: number;
  /** whether its last windows agreed (LoadSpec.steadyPct) before `warmupMax` */
  steady: boolean;
  windows: WarmupWindow[];
};

/** One run (warm-up or measured) of a generator. */
export type RunOutcome = Failures & {
  requests: number;
  durationS: number;
  latencyMs: LoadResult["latencyMs"];
  statusCounts: Record<string, number> | null;
};
/** A request without a response in this many seconds counts as a timeout. */
export const TIMEOUT_S = 10;

export const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** The cycle index of a run's first request: the measured run starts half a cycle after the warm-up. */
export function firstPair(pair: PairBody, measured: boolean): number {
  return pair.start + (measured ? Math.floor((pair.counts[0] * pair.counts[1]) / 2) : 0);
}

/** The body of the request at this index of the cycle (for wrk, the same formula in Lua). */
export function pairBodyAt(pair: PairBody, index: number): string {
  const [first, second] = pair.fields;
  const [count, secondCount] = pair.counts;
  return JSON.stringify({
    [first]: (index % count) + 1,
    [second]: (Math.floor(index / count) % secondCount) + 1,
  });
}
