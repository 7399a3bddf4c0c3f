// What a side-by-side benchmark measures (bench/run.ts runs any suite): the servers, the endpoints
// loaded, the correctness checks every server must pass before it is measured, and the targets for
// unruffled printed under the tables. Definitions only: the suites are loaded by the runner itself.
import type { PairBody } from "../load.ts";

export type ServerDef = { id: string; label: string; file: string };

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
  validated: boolean;
};

export type Check = {
  name: string;
  method: "GET" | "POST";
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
};

export type EndpointSummary = {
  rps: number;
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
  /**
   * unruffled only: by peer id, the median over the rounds of unruffled's req/s over the peer's in
   * the same round
   */
  perRound?: Record<string, number>;
  /**
   * unruffled only: by peer id, the 95 % bootstrap interval of that median. A target line inside it
   * is a tie at this run's noise: another run may fall on either side.
   */
  perRoundInterval?: Record<string, [number, number]>;
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
 * `mine` is at least `factor` times `peer` (req/s). With `perRound` (the median of the same-round
 * ratios, see EndpointSummary) that ratio decides, and the ratio of the medians is shown beside it.
 * With the median's interval too, the line says when the target lies inside it: a tie that this
 * run's ✓ or ✗ does not settle.
 */
export function fasterLine(
  text: string,
  mine: number | undefined,
  peer: number | undefined,
  factor: number,
  perRound?: number,
  interval?: [number, number],
) {
  if (!known(mine) || !known(peer) || peer <= 0) return targetLine(null, text, "");
  const medians = mine / peer;
  if (!known(perRound))
    return targetLine(medians >= factor, text, `${medians.toFixed(2)}× (target ≥ ${factor}×)`);
  const [low, high] = interval ?? [Number.NaN, Number.NaN];
  const range = known(low) && known(high) ? ` (95 %: ${low.toFixed(2)}–${high.toFixed(2)})` : "";
  const tie = known(low) && known(high) && low < factor && factor <= high ? "; a tie at this noise" : "";
  return targetLine(
    perRound >= factor,
    text,
    `${perRound.toFixed(2)}× per round${range}, ${medians.toFixed(2)}× of the medians (target ≥ ${factor}×${tie})`,
  );
}

/** unruffled's req/s on an endpoint at least `factor` times the peer's, judged per round. */
export function rpsLine(
  text: string,
  mine: EndpointSummary | undefined,
  peer: EndpointSummary | undefined,
  peerId: string,
  factor: number,
) {
  return fasterLine(
    text,
    mine?.rps,
    peer?.rps,
    factor,
    mine?.perRound?.[peerId],
    mine?.perRoundInterval?.[peerId],
  );
}

/** `mine` is at most `peer` (latency, memory). */
export function notAboveLine(text: string, mine: number | undefined, peer: number | undefined, unit: string) {
  if (!known(mine) || !known(peer)) return targetLine(null, text, "");
  return targetLine(mine <= peer, text, `${mine.toFixed(2)} vs ${peer.toFixed(2)} ${unit}`);
}
