// What moves the anchor (Fastify over raw), read from the results file of a run of `npm run bench`:
// 1. how each server approached its steady state: per server and endpoint, the median over the
//    rounds of each 1-second warm-up window's requests per CPU-second over the measured run's;
// 2. the anchor as a short fixed warm-up would have read it in the same rounds: a fixed
//    `--warmup W --duration D` measures windows W+1..W+D of the same series (W = 1, D = 2: the
//    defaults before issue 30, windows 2 and 3);
// 3. the anchor by how busy the machine was: rounds grouped by the other processes' CPU during the
//    anchor's and raw's runs.
//
//   npm exec -- node bench/anchor-report.ts [bench/results/frameworks-….json] [--warmup 1 --duration 2]
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BENCH_DIR } from "./processes.ts";
import { ANCHOR, CEILING, type Sample, type ServerOutcome } from "./run-summary.ts";
import { median } from "./stats.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { warmup: { type: "string", default: "1" }, duration: { type: "string", default: "2" } },
});
const fixedWarmup = Number(values.warmup);
const fixedDuration = Number(values.duration);
const file =
  positionals[0] ??
  join(
    BENCH_DIR,
    "results",
    readdirSync(join(BENCH_DIR, "results"))
      .filter((name) => name.startsWith("frameworks-") && name.endsWith(".json"))
      .sort()
      .at(-1) ?? "",
  );
const saved = JSON.parse(readFileSync(file, "utf8")) as { servers: ServerOutcome[] };
const ok = (s: Sample) => s.non2xx + s.errors + s.timeouts + s.wrongBody + s.warmupFailed === 0;

/** What the fixed warm-up would have measured: the mean of its windows, or null when the series is shorter. */
function fixedEstimate(sample: Sample): number | null {
  const windows = sample.warmupWindows.slice(fixedWarmup, fixedWarmup + fixedDuration);
  if (windows.length < fixedDuration || windows.some((w) => w === null)) return null;
  return (windows as number[]).reduce((a, b) => a + b, 0) / windows.length;
}

process.stdout.write(
  `${file}\n\nWarm-up windows: req/CPU-s of second k of load over the measured run's (median over rounds)\n`,
);
const maxWindows = 10;
const header = ["server", "endpoint", "runs", ...Array.from({ length: maxWindows }, (_, k) => `s${k + 1}`)];
const rows: string[][] = [];
for (const server of saved.servers) {
  for (const [endpoint, samples] of Object.entries(server.endpoints)) {
    const usable = samples.filter((s) => ok(s) && s.requestsPerCpuS !== null);
    const cells = Array.from({ length: maxWindows }, (_, k) => {
      const ratios = usable.flatMap((s) => {
        const w = s.warmupWindows[k];
        return w === undefined || w === null || s.requestsPerCpuS === null ? [] : [w / s.requestsPerCpuS];
      });
      return ratios.length === 0 ? "" : median(ratios).toFixed(2);
    });
    rows.push([server.id, endpoint, String(usable.length), ...cells]);
  }
}
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
const line = (cells: string[]) =>
  cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
process.stdout.write(`${[line(header), ...rows.map(line)].map((l) => `  ${l}`).join("\n")}\n`);

// The anchor, steady and as the fixed warm-up would have read it, in the same rounds.
const anchor = saved.servers.find((s) => s.id === ANCHOR);
const ceiling = saved.servers.find((s) => s.id === CEILING);
if (anchor !== undefined && ceiling !== undefined) {
  process.stdout.write(
    `\n${ANCHOR}/${CEILING} in req per CPU-s, median of same-round ratios: steady vs a fixed ${fixedWarmup} s warm-up + ${fixedDuration} s\n`,
  );
  for (const endpoint of Object.keys(anchor.endpoints)) {
    const steady: number[] = [];
    const fixed: number[] = [];
    for (const a of anchor.endpoints[endpoint] ?? []) {
      const c = ceiling.endpoints[endpoint]?.find((s) => s.round === a.round);
      if (c === undefined || !ok(a) || !ok(c) || a.requestsPerCpuS === null || c.requestsPerCpuS === null)
        continue;
      steady.push(a.requestsPerCpuS / c.requestsPerCpuS);
      const fa = fixedEstimate(a);
      const fc = fixedEstimate(c);
      if (fa !== null && fc !== null) fixed.push(fa / fc);
    }
    process.stdout.write(
      `  ${endpoint.padEnd(9)} steady ${median(steady).toFixed(2)}× (${steady.length} rounds)   ` +
        `fixed ${median(fixed).toFixed(2)}× (${fixed.length} rounds)\n`,
    );
  }
}

// The anchor by the machine's load: the larger of the two runs' `other CPU` in each round.
if (anchor !== undefined && ceiling !== undefined) {
  const buckets: [number, number][] = [
    [0, 20],
    [20, 60],
    [60, 100],
    [100, Number.POSITIVE_INFINITY],
  ];
  process.stdout.write(
    `\n${ANCHOR}/${CEILING} by the other processes' CPU (% of a core) during the two runs of a round\n`,
  );
  for (const endpoint of Object.keys(anchor.endpoints)) {
    const parts = buckets.map(([low, high]) => {
      const perSecond: number[] = [];
      const perCpu: number[] = [];
      for (const a of anchor.endpoints[endpoint] ?? []) {
        const c = ceiling.endpoints[endpoint]?.find((s) => s.round === a.round);
        if (c === undefined || !ok(a) || !ok(c) || a.otherCpuPct === null || c.otherCpuPct === null) continue;
        const other = Math.max(a.otherCpuPct, c.otherCpuPct);
        if (other < low || other >= high) continue;
        perSecond.push(a.rps / c.rps);
        if (a.requestsPerCpuS !== null && c.requestsPerCpuS !== null)
          perCpu.push(a.requestsPerCpuS / c.requestsPerCpuS);
      }
      const range = high === Number.POSITIVE_INFINITY ? `≥${low}` : `${low}–${high}`;
      return perSecond.length === 0
        ? `${range}: -`
        : `${range}: ${median(perSecond).toFixed(2)}× / CPU ${median(perCpu).toFixed(2)}× (${perSecond.length})`;
    });
    process.stdout.write(`  ${endpoint.padEnd(9)} ${parts.join("   ")}\n`);
  }
}
