// The line run.ts prints for an endpoint as soon as every server of the round has been loaded on
// it: raw's req/s and every other server's ratio to raw in this round (req/s, and requests per
// CPU-second), each warm-up's length, and a flag when the anchor (Fastify over raw) is off the
// median of the rounds before by more than their noise.
import {
  ANCHOR,
  ANCHOR_FLAG_NOISES,
  anchorCheck,
  byCpuSecond,
  bySecond,
  CEILING,
  roundRatios,
  type Sample,
  type ServerOutcome,
  settled,
} from "./run-summary.ts";
import type { EndpointDef } from "./suites/suite.ts";

/** Rounds before this one needed for a running median worth comparing with. */
const MIN_HISTORY = 4;

export function roundLine(
  endpoint: EndpointDef,
  thisRound: { id: string; sample: Sample }[],
  outcomes: Map<string, ServerOutcome>,
  steady: { steadyPct: number; steadyWindows: number },
): string {
  const ceiling = thisRound.find((entry) => entry.id === CEILING)?.sample;
  const parts: string[] = [];
  if (ceiling !== undefined) parts.push(`${CEILING} ${Math.round(ceiling.rps).toLocaleString("en-US")}/s`);
  for (const { id, sample } of thisRound) {
    if (id === CEILING || ceiling === undefined) continue;
    const perCpu =
      sample.requestsPerCpuS !== null && ceiling.requestsPerCpuS !== null
        ? ` (CPU ${(sample.requestsPerCpuS / ceiling.requestsPerCpuS).toFixed(2)}×)`
        : "";
    parts.push(`${id} ${(sample.rps / ceiling.rps).toFixed(2)}×${perCpu}`);
  }
  const warmups = thisRound
    .map(({ id, sample }) => `${id} ${sample.warmupS.toFixed(0)}${sample.steady ? "" : "!"}`)
    .join(" ");
  const flags: string[] = [];
  const unsteady = thisRound.filter(({ sample }) => !sample.steady).map(({ id }) => id);
  if (unsteady.length > 0) flags.push(`not steady at the warm-up's cap: ${unsteady.join(", ")}`);
  const rose = thisRound
    .filter(({ sample }) => sample.steady && !settled(sample, steady.steadyPct, steady.steadyWindows))
    .map(({ id }) => id);
  if (rose.length > 0) flags.push(`faster in the measured run than at the warm-up's end: ${rose.join(", ")}`);
  const anchor = anchorFlag(endpoint, thisRound, outcomes);
  if (anchor !== null) flags.push(anchor);
  return (
    `  ${endpoint.id.padEnd(9)} ${parts.join(" · ")}  | warm-up s: ${warmups}` +
    (flags.length > 0 ? `  ⚑ ${flags.join("; ")}` : "")
  );
}

/** The anchor's ratio this round (req/s, and per CPU-second) against the median and noise of the rounds before. */
function anchorFlag(
  endpoint: EndpointDef,
  thisRound: { id: string; sample: Sample }[],
  outcomes: Map<string, ServerOutcome>,
): string | null {
  const anchor = thisRound.find((entry) => entry.id === ANCHOR)?.sample;
  const ceiling = thisRound.find((entry) => entry.id === CEILING)?.sample;
  if (anchor === undefined || ceiling === undefined) return null;
  const departures = [
    { measure: "req/s", pick: bySecond },
    { measure: "per CPU-s", pick: byCpuSecond },
  ].flatMap(({ measure, pick }) => {
    const history = roundRatios(
      outcomes.get(ANCHOR)?.endpoints[endpoint.id] ?? [],
      outcomes.get(CEILING)?.endpoints[endpoint.id] ?? [],
      pick,
    ).filter((r) => r.round < anchor.round);
    const mine = pick(anchor);
    const theirs = pick(ceiling);
    if (history.length < MIN_HISTORY || mine === null || theirs === null || theirs <= 0) return [];
    const { median, noisePct } = anchorCheck(history);
    const ratio = mine / theirs;
    if (Math.abs(ratio / median - 1) * 100 <= ANCHOR_FLAG_NOISES * noisePct) return [];
    return [
      `${measure} ${ratio.toFixed(2)}× off its median ${median.toFixed(2)}× (noise ±${noisePct.toFixed(1)} %)`,
    ];
  });
  return departures.length === 0 ? null : `anchor ${ANCHOR}/${CEILING} ${departures.join(", ")}`;
}
