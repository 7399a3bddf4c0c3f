// The anchor's table in the report of bench/run.ts: Fastify over raw node:http, which must hold
// still within a run and from one run to the next.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_DIR } from "./processes.ts";
import { NOISY_PCT } from "./run-config.ts";
import {
  ANCHOR,
  ANCHOR_FLAG_NOISES,
  anchorCheck,
  byCpuSecond,
  CEILING,
  roundRatios,
  type ServerOutcome,
} from "./run-summary.ts";
import { median } from "./stats.ts";
import type { RatioSummary, Suite, Summary } from "./suites/suite.ts";
import { fmt, table } from "./text-table.ts";

/** A ratio with its interval when there is one: `0.93× (0.90–0.95)`. */
export function withInterval(summary: RatioSummary | undefined): string {
  if (summary === undefined || !Number.isFinite(summary.ratio)) return "-";
  const range = summary.interval ? ` (${fmt(summary.interval[0])}–${fmt(summary.interval[1])})` : "";
  return `${fmt(summary.ratio)}×${range}`;
}

/** The summary of the last run of the same suite, to compare this run's anchor with. */
export type PreviousRun = { file: string; date: string; summary: Summary };

/**
 * The anchor (Fastify over raw, same round) per endpoint: its median and interval, its noise, the
 * rounds that departed from it, and the last run's anchor when it lies outside this run's interval.
 */
export function anchorSection(
  suite: Suite,
  summary: Summary,
  outcomes: Map<string, ServerOutcome>,
  previous: PreviousRun | null,
): string[] {
  const anchor = outcomes.get(ANCHOR);
  const ceiling = outcomes.get(CEILING);
  if (anchor === undefined || ceiling === undefined) return [];
  const out = [
    `Anchor: ${anchor.label} over ${ceiling.label}, same round (it must hold still; a round off its median by`,
    `more than ${ANCHOR_FLAG_NOISES} noises is flagged; noise = 1.4826 × median absolute deviation, relative)`,
  ];
  const rows: string[][] = [];
  for (const endpoint of suite.endpoints) {
    const ratios = roundRatios(anchor.endpoints[endpoint.id] ?? [], ceiling.endpoints[endpoint.id] ?? []);
    if (ratios.length === 0) continue;
    const check = anchorCheck(ratios);
    const perCpu = anchorCheck(
      roundRatios(anchor.endpoints[endpoint.id] ?? [], ceiling.endpoints[endpoint.id] ?? [], byCpuSecond),
    );
    // The machine's co-tenants on the server's core slow the larger server more (its code and data
    // lose more of the caches): the anchor of the rounds without them, beside the whole run's.
    const quiet = ratios.filter(({ round }) => {
      const pair = [anchor, ceiling].map((o) => o.endpoints[endpoint.id]?.find((s) => s.round === round));
      return pair.every((s) => s !== undefined && s.otherCpuPct !== null && s.otherCpuPct < NOISY_PCT);
    });
    const quietCell =
      quiet.length === 0 ? "none" : `${fmt(median(quiet.map((r) => r.ratio)))}× (${quiet.length} rounds)`;
    // Round numbers only, a few of them: the ratios are in the round lines.
    const flagged = (c: ReturnType<typeof anchorCheck>) => {
      const rounds = c.flagged.map((r) => r.round);
      if (rounds.length === 0) return "none";
      return `${rounds.length}: ${rounds.slice(0, 6).join(" ")}${rounds.length > 6 ? " …" : ""}`;
    };
    const mine = summary[ANCHOR]?.endpoints[endpoint.id]?.vsCeiling;
    const before = previous?.summary[ANCHOR]?.endpoints[endpoint.id]?.vsCeiling?.ratio;
    const outside =
      before !== undefined &&
      mine?.interval !== undefined &&
      (before < mine.interval[0] || before > mine.interval[1]);
    rows.push([
      endpoint.id,
      withInterval(mine),
      `±${fmt(check.noisePct, 1)} %`,
      flagged(check),
      withInterval(mine?.perCpu),
      `±${fmt(perCpu.noisePct, 1)} %`,
      flagged(perCpu),
      quietCell,
      before === undefined ? "-" : `${fmt(before)}×${outside ? " ⚠ outside this run's interval" : ""}`,
    ]);
  }
  out.push(
    table(
      [
        "endpoint",
        "req/s",
        "noise",
        "flagged rounds",
        "per CPU-s",
        "noise",
        "flagged rounds",
        `quiet rounds (other CPU < ${NOISY_PCT} %)`,
        "last run (req/s)",
      ],
      rows,
    ),
    previous === null ? "" : `  last run: ${previous.file} (${previous.date})`,
    "",
  );
  return out;
}

/** The latest results file of this suite, written before this run, or null. */
export function previousRun(suiteId: string): PreviousRun | null {
  const dir = join(BENCH_DIR, "results");
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.startsWith(`${suiteId}-`) && name.endsWith(".json"))
        .sort()
    : [];
  const last = files.at(-1);
  if (last === undefined) return null;
  try {
    const saved = JSON.parse(readFileSync(join(dir, last), "utf8")) as {
      machine: { date: string };
      summary: Summary;
    };
    return { file: join("bench/results", last), date: saved.machine.date, summary: saved.summary };
  } catch {
    return null;
  }
}
