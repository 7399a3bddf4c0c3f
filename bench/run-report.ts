// The report of bench/run.ts: a table per endpoint, the anchor's check, start-up, the targets, notes.
import type { LoadGenerator } from "./load.ts";
import { anchorSection, type PreviousRun, withInterval } from "./run-anchor.ts";
import { type Config, NOISY_PCT } from "./run-config.ts";
import { CEILING, MIN_ROUNDS_FOR_INTERVAL, type ServerOutcome } from "./run-summary.ts";
import type { Suite, Summary } from "./suites/suite.ts";
import { fmt, fmtInt, ratio, table } from "./text-table.ts";

export type { PreviousRun } from "./run-anchor.ts";

export function renderReport(
  suite: Suite,
  summary: Summary,
  outcomes: Map<string, ServerOutcome>,
  config: Config,
  generator: LoadGenerator,
  previous: PreviousRun | null,
): string {
  const out: string[] = [];
  const label = (id: string) => outcomes.get(id)?.label ?? id;
  const peers = suite.servers.map((s) => s.id).filter((id) => id !== "unruffled");
  const uf = summary.unruffled;
  let loadBound = false;
  let disturbed = false;

  for (const endpoint of suite.endpoints) {
    out.push(`${endpoint.label}${endpoint.validated ? "  (validated)" : ""}`);
    const rows: string[][] = [];
    for (const [id, entry] of Object.entries(summary)) {
      const e = entry.endpoints[endpoint.id];
      if (!e) continue;
      if (e.loadCpuPct >= 95) loadBound = true;
      if (e.otherCpuPct >= NOISY_PCT) disturbed = true;
      rows.push([
        label(id),
        fmtInt(e.rps),
        `${fmt(e.spreadPct, 0)}%`,
        fmtInt(e.requestsPerCpuS),
        fmt(e.p50Ms),
        fmt(e.p99Ms),
        fmt(e.rssMB, 1),
        id === CEILING ? "1" : withInterval(e.vsCeiling),
        id === CEILING ? "1" : withInterval(e.vsCeiling?.perCpu),
        `${fmt(e.warmupS, 0)}${e.unsteady ? ` (${e.unsteady} unsteady)` : ""}`,
        `${fmt(e.serverCpuPct, 0)}%`,
        `${fmt(e.loadCpuPct, 0)}%`,
        `${fmt(e.otherCpuPct, 0)}%`,
        e.excluded ? `${e.excluded} run(s) with errors left out` : "",
      ]);
    }
    out.push(
      table(
        [
          "framework",
          "req/s",
          "spread",
          "req/CPU-s",
          "p50 ms",
          "p99 ms",
          "RSS MB",
          "vs raw",
          "vs raw, CPU",
          "warm-up s",
          "server CPU",
          "load CPU",
          "other CPU",
          "",
        ],
        rows,
      ),
    );
    const ue = uf?.endpoints[endpoint.id];
    if (ue) {
      const parts = peers.flatMap((peer) => {
        const pe = summary[peer]?.endpoints[endpoint.id];
        const paired = ue.perRound?.[peer];
        return pe
          ? [
              `${label(peer)} ${ratio(ue.rps, pe.rps)}${paired === undefined ? "" : ` (per round ${fmt(paired)}×)`}`,
            ]
          : [];
      });
      out.push(`  unruffled req/s vs: ${parts.join(" · ")}`);
      const perCpu = Object.entries(ue.perRoundCpu ?? {}).map(
        ([peer, r]) => `${label(peer)} ${withInterval(r)}`,
      );
      if (perCpu.length > 0) out.push(`  unruffled req per CPU-s vs: ${perCpu.join(" · ")}`);
    }
    out.push("");
  }

  out.push(...anchorSection(suite, summary, outcomes, previous));

  out.push(`Start-up (spawn → first 200 on ${suite.readyPath}, median of every start) and peak RSS`);
  out.push(
    table(
      ["framework", "start-up ms", "peak RSS MB", "vs raw"],
      Object.entries(summary).map(([id, entry]) => [
        label(id),
        fmtInt(entry.startupMs),
        fmt(entry.peakRssMB, 1),
        summary.raw ? ratio(entry.startupMs, summary.raw.startupMs) : "-",
      ]),
    ),
  );

  const skipped = [...outcomes.values()].filter((o) => o.status === "skipped");
  if (skipped.length > 0) {
    out.push("\nSkipped");
    for (const o of skipped) out.push(`  ${o.label}: ${o.reason}`);
  }
  const partial = [...outcomes.values()].filter((o) => o.roundFailures.length > 0);
  if (partial.length > 0) {
    out.push("\nNot measured in some rounds (medians over the other rounds)");
    for (const o of partial) {
      for (const f of o.roundFailures) out.push(`  ${o.label}, round ${f.round}: ${f.reason}`);
    }
  }
  const warned = [...outcomes.values()].filter((o) => o.warnings.length > 0);
  if (warned.length > 0) {
    out.push("\nCorrectness warnings (status differs from the shared rule, input still refused)");
    for (const o of warned) out.push(`  ${o.label}: ${o.warnings.join("; ")}`);
  }

  out.push("\nTargets for unruffled (informative, not asserted)");
  out.push(
    ...(summary.unruffled
      ? suite.targets(summary)
      : ["  n/a — unruffled was not measured (skipped or not selected)"]),
  );

  out.push("\nNotes");
  out.push(
    `  req/s and latencies: median over ${config.rounds} interleaved round(s); spread = (max − min) / median of req/s.`,
  );
  out.push(
    "  per round: the median over the rounds of unruffled's req/s over the peer's in the same round (runs\n" +
      "    seconds apart), which the machine's drift between rounds does not move; the targets use it.\n" +
      `    95 %: a bootstrap interval of that median (from ${MIN_ROUNDS_FOR_INTERVAL} rounds); a target inside it is a tie\n` +
      "    that another run may settle the other way.",
  );
  out.push(
    "  vs raw: the same, of each server over raw node:http (interval from 8 rounds); vs raw, CPU: of requests\n" +
      "    per second of each server's own CPU time (req/CPU-s), which a busy machine moves less than req/s.\n" +
      `  warm-up s: median warm-up; each goes on in 1 s windows (${config.warmup}–${config.warmupMax} s) until the last\n` +
      `    ${config.steadyWindows} agree within ${config.steadyPct} % in req/CPU-s; unsteady: runs that reached the cap first,\n` +
      `    or whose measured run was more than ${config.steadyPct} % above the warm-up's last windows (still climbing).`,
  );
  out.push("  RSS MB: server VmRSS right after that endpoint's load; peak RSS: VmHWM at the end of a round.");
  out.push(
    generator === "wrk"
      ? `  load generator: wrk, 1 thread, ${config.connections} connections; latencies exact to 1 µs. Failed responses\n` +
          "    (a run with any is left out): socket errors, timeouts, status ≥ 400 in the measured run, any non-2xx\n" +
          "    in its warm-up."
      : `  load generator: autocannon, ${config.connections} connections (wrk, when installed, saturates far later);\n` +
          "    failed responses (a run with any is left out): socket errors, timeouts, any non-2xx.",
  );
  const checked = suite.endpoints.filter((e) => e.bodyIncludes !== undefined);
  for (const marker of new Set(checked.map((e) => e.bodyIncludes))) {
    const ids = checked.filter((e) => e.bodyIncludes === marker).map((e) => e.id);
    out.push(
      `  ${ids.join(", ")}: every answer under load must contain ${marker} (refusals are HTTP 200 here), else\n` +
        "    it counts as a failed response.",
    );
  }
  out.push(
    "  server/load/other CPU: CPU time during the measured run, % of one core (user + kernel); other = the\n" +
      "    rest of the machine (kernel loopback work included).",
  );
  if (loadBound) {
    out.push(
      "  ⚠ the load generator used ≥95% of its core on some runs: those numbers are a floor for the\n" +
        "    server, and ratios between the fastest servers are compressed.",
    );
  }
  if (disturbed) {
    out.push(
      `  ⚠ other processes used ≥${NOISY_PCT}% of a core during some runs: the machine was not quiet, expect noise\n` +
        "    (compare the spread column; re-run on an idle machine for conclusions).",
    );
  }
  const unsteady = Object.values(summary).some((entry) =>
    Object.values(entry.endpoints).some((e) => e.unsteady > 0),
  );
  if (unsteady) {
    out.push(
      "  ⚠ some servers were not steady when their warm-up reached its cap: those runs measured a server\n" +
        "    still changing (or a machine that kept it from settling); see the warm-up s column.",
    );
  }
  if (config.quick) out.push("  --quick: smoke run, too short for conclusions.");
  return out.join("\n");
}
