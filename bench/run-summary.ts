// What run.ts keeps of every measured run (a Sample), and what it makes of them: medians, the
// same-round ratios of every server to raw node:http and of unruffled to each peer, and the check
// of the anchor (Fastify over raw), which must hold still from round to round.
import { median, medianInterval } from "./stats.ts";
import type { EndpointDef, EndpointSummary, ServerDef, Summary } from "./suites/suite.ts";

export type Sample = {
  round: number;
  rps: number;
  /** requests per second of the server's own CPU time (null without /proc) */
  requestsPerCpuS: number | null;
  p50Ms: number;
  p99Ms: number;
  rssMB: number | null;
  serverCpuPct: number | null;
  loadCpuPct: number;
  otherCpuPct: number | null;
  /** how long the warm-up before this run went on, and whether the server was steady by its end */
  warmupS: number;
  steady: boolean;
  /** requests per CPU-second (else req/s) of each 1-second window of the warm-up */
  warmupWindows: (number | null)[];
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** answers without the endpoint's `bodyIncludes` */
  wrongBody: number;
  /** failed responses (non-2xx, socket errors, timeouts, wrong bodies) during the warm-up before this run */
  warmupFailed: number;
  /** the start of the first wrong body, of the measured run or else its warm-up: what came instead */
  wrongBodySample: string | null;
};

/**
 * Whether a run measured a settled server: its warm-up ended steady, and the measured run did not
 * climb above the warm-up's last windows by more than `steadyPct` (a server that sat on a plateau
 * for a few seconds while V8 was still compiling its hot code, then got faster).
 */
export function settled(sample: Sample, steadyPct: number, windows: number): boolean {
  if (!sample.steady) return false;
  const last = sample.warmupWindows.slice(-windows).filter((w): w is number => w !== null);
  const measured = sample.requestsPerCpuS;
  if (last.length === 0 || measured === null) return true;
  const before = last.reduce((a, b) => a + b, 0) / last.length;
  return measured <= before * (1 + steadyPct / 100);
}

/** Responses of a run that were not a success, its warm-up included. */
export const failedResponses = (s: Sample) => s.non2xx + s.errors + s.timeouts + s.wrongBody + s.warmupFailed;

export type ServerOutcome = {
  id: string;
  label: string;
  status: "measured" | "skipped";
  reason?: string;
  warnings: string[];
  roundFailures: { round: number; reason: string }[];
  startupMs: number[];
  peakRssMB: number[];
  endpoints: Record<string, Sample[]>;
};

/** Fewer same-round ratios than this get no interval: resampling a handful is narrower than the truth. */
export const MIN_ROUNDS_FOR_INTERVAL = 8;

/** The server every other is divided by, and the peer whose own ratio to it must hold still. */
export const CEILING = "raw";
export const ANCHOR = "fastify";

/** A round's anchor is flagged when it departs from the run's median by more than this many noises. */
export const ANCHOR_FLAG_NOISES = 2;

export type Pick = (sample: Sample) => number | null;
export const bySecond: Pick = (s) => s.rps;
export const byCpuSecond: Pick = (s) => s.requestsPerCpuS;

/** `mine` over `peer` in each round where both were measured without failures, with the round. */
export function roundRatios(
  mine: Sample[],
  peer: Sample[],
  pick: Pick = bySecond,
): { round: number; ratio: number }[] {
  const ratios: { round: number; ratio: number }[] = [];
  for (const sample of mine) {
    const other = peer.find((candidate) => candidate.round === sample.round);
    if (other === undefined || failedResponses(sample) > 0 || failedResponses(other) > 0) continue;
    const a = pick(sample);
    const b = pick(other);
    if (a !== null && b !== null && b > 0) ratios.push({ round: sample.round, ratio: a / b });
  }
  return ratios;
}

function ratioSummary(ratios: number[]): { ratio: number; interval: [number, number] | undefined } {
  return {
    ratio: median(ratios),
    interval: ratios.length >= MIN_ROUNDS_FOR_INTERVAL ? medianInterval(ratios) : undefined,
  };
}

/**
 * The anchor's noise and the rounds it departed in: noise is the robust spread of its same-round
 * ratios to raw (1.4826 × the median absolute deviation, relative to the median: one standard
 * deviation for normal noise); a round is flagged when its ratio is off the median by more than
 * ANCHOR_FLAG_NOISES noises. With such rounds the run measured something else than the servers
 * now and then: the machine, or a server that had not settled.
 */
export function anchorCheck(ratios: { round: number; ratio: number }[]): {
  median: number;
  noisePct: number;
  flagged: { round: number; ratio: number }[];
} {
  const mid = median(ratios.map((r) => r.ratio));
  const deviations = ratios.map((r) => Math.abs(r.ratio / mid - 1));
  const noise = 1.4826 * median(deviations);
  const flagged = ratios.filter(
    (r) => ratios.length >= 4 && Math.abs(r.ratio / mid - 1) > ANCHOR_FLAG_NOISES * noise,
  );
  return { median: mid, noisePct: noise * 100, flagged };
}

export function summarize(
  servers: ServerDef[],
  endpoints: EndpointDef[],
  outcomes: Map<string, ServerOutcome>,
  steady: { steadyPct: number; steadyWindows: number },
): Summary {
  const summary: Summary = {};
  for (const server of servers) {
    const outcome = outcomes.get(server.id);
    if (outcome?.status !== "measured") continue;
    const medians: Record<string, EndpointSummary> = {};
    for (const endpoint of endpoints) {
      // a run with failed responses measured something else than the endpoint: left out
      const all = outcome.endpoints[endpoint.id] ?? [];
      const samples = all.filter((s) => failedResponses(s) === 0);
      if (samples.length === 0) continue;
      const rps = samples.map((s) => s.rps);
      const med = median(rps);
      const known = (values: (number | null)[]) => values.flatMap((v) => (v === null ? [] : [v]));
      const entry: EndpointSummary = {
        rps: med,
        requestsPerCpuS: median(known(samples.map((s) => s.requestsPerCpuS))),
        spreadPct: med > 0 ? ((Math.max(...rps) - Math.min(...rps)) / med) * 100 : 0,
        p99Ms: median(samples.map((s) => s.p99Ms)),
        p50Ms: median(samples.map((s) => s.p50Ms)),
        rssMB: median(known(samples.map((s) => s.rssMB))),
        serverCpuPct: median(known(samples.map((s) => s.serverCpuPct))),
        loadCpuPct: median(samples.map((s) => s.loadCpuPct)),
        otherCpuPct: median(known(samples.map((s) => s.otherCpuPct))),
        warmupS: median(samples.map((s) => s.warmupS)),
        unsteady: samples.filter((s) => !settled(s, steady.steadyPct, steady.steadyWindows)).length,
        samples: samples.length,
        excluded: all.length - samples.length,
      };
      medians[endpoint.id] = entry;
      if (endpoint.baseline !== undefined) {
        const ratios = roundRatios(all, outcome.endpoints[endpoint.baseline] ?? []);
        if (ratios.length > 0) entry.overBaseline = ratioSummary(ratios.map((r) => r.ratio));
      }
      const ceiling = outcomes.get(CEILING)?.endpoints[endpoint.id];
      if (ceiling !== undefined && server.id !== CEILING) {
        const perSecond = roundRatios(all, ceiling).map((r) => r.ratio);
        const perCpu = roundRatios(all, ceiling, byCpuSecond).map((r) => r.ratio);
        if (perSecond.length > 0) {
          entry.vsCeiling = {
            ...ratioSummary(perSecond),
            ...(perCpu.length > 0 ? { perCpu: ratioSummary(perCpu) } : {}),
          };
        }
      }
    }
    summary[server.id] = {
      startupMs: median(outcome.startupMs),
      peakRssMB: median(outcome.peakRssMB),
      endpoints: medians,
    };
  }
  for (const { id } of servers) pairWithPeers(summary, id, servers, endpoints, outcomes);
  return summary;
}

/** Each endpoint's same-round ratios of server `mineId` to each other server that was measured. */
function pairWithPeers(
  summary: Summary,
  mineId: string,
  servers: ServerDef[],
  endpoints: EndpointDef[],
  outcomes: Map<string, ServerOutcome>,
): void {
  const mine = outcomes.get(mineId);
  for (const endpoint of endpoints) {
    const entry = summary[mineId]?.endpoints[endpoint.id];
    if (mine === undefined || entry === undefined) continue;
    entry.perRound = {};
    entry.perRoundInterval = {};
    entry.perRoundCpu = {};
    for (const server of servers) {
      const peer = outcomes.get(server.id);
      if (server.id === mineId || peer === undefined) continue;
      const ours = mine.endpoints[endpoint.id] ?? [];
      const theirs = peer.endpoints[endpoint.id] ?? [];
      const ratios = roundRatios(ours, theirs).map((r) => r.ratio);
      if (ratios.length === 0) continue;
      const { ratio, interval } = ratioSummary(ratios);
      entry.perRound[server.id] = ratio;
      if (interval) entry.perRoundInterval[server.id] = interval;
      const perCpu = roundRatios(ours, theirs, byCpuSecond).map((r) => r.ratio);
      if (perCpu.length > 0) entry.perRoundCpu[server.id] = ratioSummary(perCpu);
    }
  }
}
