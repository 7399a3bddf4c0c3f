// What a side-by-side benchmark measures (bench/run.ts runs any suite): the servers, the endpoints
// loaded, the correctness checks every server must pass before it is measured, and the targets for
// unruffled printed under the tables. Definitions only: the suites are loaded by the runner itself.
import type { PairBody } from "../load.ts";

export type ServerDef = {
  id: string;
  label: string;
  file: string;
  /** The runtime that runs the file (default: the runner's own Node). */
  runtime?: "bun" | "deno";
};

export type EndpointDef = {
  id: string;
  label: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
  /** a new body for every request instead of `body` (see `PairBody` in load.ts) */
  pairBody?: PairBody;
  /**
   * every answer under load must contain this, or it counts as a failed response: for APIs that
   * answer refusals with HTTP 200 and the outcome in the body
   */
  bodyIncludes?: string;
  /** headers every request carries (an `Authorization`, a browser's `Origin`, an `Accept-Encoding`) */
  headers?: Record<string, string>;
  /** the servers that serve it (default: all of the suite's); the others are not loaded on it */
  servers?: string[];
  /**
   * another endpoint of the suite this one is compared with on each server itself, same round: what
   * the difference between the two costs (EndpointSummary.overBaseline)
   */
  baseline?: string;
  validated: boolean;
};

export type Check = {
  name: string;
  method: "GET" | "POST" | "OPTIONS";
  path: string;
  body?: string;
  status: number;
  /**
   * the refusal expected in the `code` of a `{ code, message, data }` envelope, for APIs that answer
   * refusals with `status` 200: judged like a refused status (another 4xx is only a warning)
   */
  envelopeCode?: number;
  /** the exact JSON body (deep equality) or text body expected; omitted: any JSON body */
  json?: unknown;
  text?: string;
  /** request headers to send */
  headers?: Record<string, string>;
  /** response headers expected, exactly (names in lower case) */
  responseHeaders?: Record<string, string>;
  /** the servers it applies to (default: all) */
  servers?: string[];
};

/** Whether a server answers an endpoint or a check: those that name no servers apply to all. */
export function appliesTo(item: { servers?: string[] }, serverId: string): boolean {
  return item.servers === undefined || item.servers.includes(serverId);
}

/** A median of same-round ratios, with its 95 % bootstrap interval from 8 rounds up. */
export type RatioSummary = { ratio: number; interval: [number, number] | undefined };

export type EndpointSummary = {
  rps: number;
  /** requests per second of the server's own CPU time: what a request costs it */
  requestsPerCpuS: number;
  spreadPct: number;
  p99Ms: number;
  p50Ms: number;
  rssMB: number;
  serverCpuPct: number;
  loadCpuPct: number;
  otherCpuPct: number;
  samples: number;
  /** runs left out of the medians because some responses failed */
  excluded: number;
  /** the median warm-up, seconds, and the runs whose warm-up ended at its cap without being steady */
  warmupS: number;
  unsteady: number;
  /**
   * every server but raw: the median over the rounds of its req/s over raw's in the same round
   * (and of its requests per CPU-second over raw's)
   */
  vsCeiling?: RatioSummary & { perCpu?: RatioSummary };
  /** by peer id, the median over the rounds of this server's req/s over the peer's in the same round */
  perRound?: Record<string, number>;
  /**
   * by peer id, the 95 % bootstrap interval of that median. A target line inside it is a tie at this
   * run's noise: another run may fall on either side.
   */
  perRoundInterval?: Record<string, [number, number]>;
  /** by peer id, the same-round ratio of requests per CPU-second */
  perRoundCpu?: Record<string, RatioSummary>;
  /**
   * for an endpoint with a `baseline`: the median over the rounds of its req/s over the baseline
   * endpoint's on the same server in the same round, with the 95 % interval when there are enough rounds
   */
  overBaseline?: RatioSummary;
};

/** Medians per server id, for the servers that were measured. */
export type Summary = Record<
  string,
  { startupMs: number; peakRssMB: number; endpoints: Record<string, EndpointSummary> }
>;

export type Suite = {
  id: string;
  title: string;
  servers: ServerDef[];
  endpoints: EndpointDef[];
  checks: Check[];
  /** polled after `listening <port>` until it answers 200: the server is ready */
  readyPath: string;
  /** the target lines for unruffled (called only when unruffled was measured) */
  targets(summary: Summary): string[];
};

// ---------------------------------------------------------------------------------------------
// Target lines, marked ✓ or ✗ (`·` and n/a when a number is missing)

const known = (value: number | undefined): value is number => value !== undefined && Number.isFinite(value);

function targetLine(ok: boolean | null, text: string, detail: string): string {
  return `  ${ok === null ? "·" : ok ? "✓" : "✗"} ${text.padEnd(40)} ${ok === null ? "n/a" : detail}`;
}

/**
 * Whether a median ratio meets `factor`: at or above it, or a tie (its interval holds the line),
 * which counts as met. A target is missed only when its whole interval lies below the line.
 */
export function meets(ratio: number, interval: [number, number] | undefined, factor: number) {
  const tie = interval !== undefined && interval[0] < factor && factor <= interval[1];
  return { met: ratio >= factor || tie, note: tie ? "; a tie at this noise: met" : "" };
}

/**
 * unruffled's req/s on an endpoint is at least `factor` times the peer's. The median of the
 * same-round ratios (EndpointSummary.perRound) decides when there is one, with the ratio of the
 * medians beside it; the median's interval, when there is one, shows whether the target lies inside
 * it: a tie, which counts as met (`meets`).
 */
export function rpsLine(text: string, summary: Summary, endpointId: string, peerId: string, factor: number) {
  const mine = summary.unruffled?.endpoints[endpointId];
  const peer = summary[peerId]?.endpoints[endpointId];
  if (!known(mine?.rps) || !known(peer?.rps) || peer.rps <= 0) return targetLine(null, text, "");
  const medians = mine.rps / peer.rps;
  const perRound = mine.perRound?.[peerId];
  if (!known(perRound))
    return targetLine(medians >= factor, text, `${medians.toFixed(2)}× (target ≥ ${factor}×)`);
  const interval = mine.perRoundInterval?.[peerId];
  const range = interval ? ` (95 %: ${interval[0].toFixed(2)}–${interval[1].toFixed(2)})` : "";
  const verdict = meets(perRound, interval, factor);
  return targetLine(
    verdict.met,
    text,
    `${perRound.toFixed(2)}× per round${range}, ${medians.toFixed(2)}× of the medians (target ≥ ${factor}×${verdict.note})`,
  );
}

/**
 * unruffled's req/s on an endpoint is at least `factor` times its own on the endpoint's baseline,
 * in the same rounds: what a feature costs against the same route without it.
 */
export function baselineLine(text: string, summary: Summary, endpointId: string, factor: number) {
  const over = summary.unruffled?.endpoints[endpointId]?.overBaseline;
  if (over === undefined || !known(over.ratio)) return targetLine(null, text, "");
  const range = over.interval ? ` (95 %: ${over.interval[0].toFixed(2)}–${over.interval[1].toFixed(2)})` : "";
  const verdict = meets(over.ratio, over.interval, factor);
  return targetLine(
    verdict.met,
    text,
    `${over.ratio.toFixed(2)}× per round${range} (target ≥ ${factor}×${verdict.note})`,
  );
}

/**
 * Another server's own ratio of an endpoint to its baseline, beside unruffled's, without a verdict:
 * what the same feature costs there (the rate limit written by hand on raw node:http).
 */
export function baselineReference(text: string, summary: Summary, endpointId: string, serverId: string) {
  const over = summary[serverId]?.endpoints[endpointId]?.overBaseline;
  if (over === undefined || !known(over.ratio)) return targetLine(null, text, "");
  const range = over.interval ? ` (95 %: ${over.interval[0].toFixed(2)}–${over.interval[1].toFixed(2)})` : "";
  return `  · ${text.padEnd(40)} ${over.ratio.toFixed(2)}× per round${range} (for reference)`;
}

/**
 * One server's req/s on an endpoint over another's, median of the same-round ratios, without a
 * verdict: where a reference stands against a peer (Bun raw with unruffled's request contract
 * against Elysia).
 */
export function pairReference(
  text: string,
  summary: Summary,
  endpointId: string,
  mineId: string,
  peerId: string,
) {
  const entry = summary[mineId]?.endpoints[endpointId];
  const ratio = entry?.perRound?.[peerId];
  if (!known(ratio)) return targetLine(null, text, "");
  const interval = entry?.perRoundInterval?.[peerId];
  const range = interval ? ` (95 %: ${interval[0].toFixed(2)}–${interval[1].toFixed(2)})` : "";
  return `  · ${text.padEnd(40)} ${ratio.toFixed(2)}× per round${range} (for reference)`;
}

/** `mine` is at most `peer` (latency, memory). */
export function notAboveLine(text: string, mine: number | undefined, peer: number | undefined, unit: string) {
  if (!known(mine) || !known(peer)) return targetLine(null, text, "");
  return targetLine(mine <= peer, text, `${mine.toFixed(2)} vs ${peer.toFixed(2)} ${unit}`);
}
