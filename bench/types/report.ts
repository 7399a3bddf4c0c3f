import { medianInterval } from "../stats.ts";
import { type Measurement, median } from "./measure.ts";
import type { Layout } from "./programs.ts";

type Results = Record<number, Record<string, Record<string, Measurement>>>;

/** What a program adds to another: seconds and megabytes. */
interface Cost {
  seconds: number;
  megabytes: number;
}

const cell = (cost: Cost) => `${cost.seconds.toFixed(2)} s / ${cost.megabytes.toFixed(0)} MB`;
/**
 * What program `a` adds to program `b`: the median of the rounds' differences. The rounds interleave
 * the programs, so a slow moment of the machine falls on both sides of a difference; a difference
 * of the two medians instead carried each side's noise whole, which at a few tenths of a second
 * was as large as the difference itself.
 */
export function minus(a: Measurement, b: Measurement): Cost {
  const rounds = a.rounds.map((round, index) => ({
    seconds: round.seconds - b.rounds[index]!.seconds,
    megabytes: round.megabytes - b.rounds[index]!.megabytes,
  }));
  return {
    seconds: median(rounds.map((round) => round.seconds)),
    megabytes: median(rounds.map((round) => round.megabytes)),
  };
}

/** How many times slower `a` checks than `b`, round by round (see `minus`). */
export function roundRatios(a: Measurement, b: Measurement): number[] {
  return a.rounds.map((round, index) => round.seconds / b.rounds[index]!.seconds);
}

/** How many times what `a` adds to `aBase` is what `b` adds to `bBase`, round by round. */
export function roundCostRatios(
  a: Measurement,
  aBase: Measurement,
  b: Measurement,
  bBase: Measurement,
): number[] {
  return a.rounds.map(
    (round, index) =>
      (round.seconds - aBase.rounds[index]!.seconds) /
      (b.rounds[index]!.seconds - bBase.rounds[index]!.seconds),
  );
}

/**
 * A target "at most `line` times": judged on the median of the rounds' ratios, as the project judges
 * its targets. Met at or below the line, or when the median's 95 % interval holds the line (a tie at
 * this noise); missed only when the whole interval lies above it.
 */
export function atMost(ratios: readonly number[], line: number): { met: boolean; text: string } {
  const [low] = medianInterval([...ratios]);
  const tie = median(ratios) > line && low <= line;
  return {
    met: median(ratios) <= line || tie,
    text: `${described(ratios)}${tie ? ", a tie at this noise" : ""}`,
  };
}

/** A ratio as the report writes it: the median of the rounds', its 95 % interval, the rounds. */
function described(ratios: readonly number[]): string {
  const [low, high] = medianInterval([...ratios]);
  return `${median(ratios).toFixed(2)}× (95 % ${low.toFixed(2)}–${high.toFixed(2)}, ${ratios.length} rounds)`;
}

function title(layout: Layout, which: string): string {
  const routes = layout === "modules" ? "in modules of 50" : "all in one file";
  return `Type-check cost (tsc --extendedDiagnostics --singleThreaded; medians), routes ${routes}${which}: CPU time / memory used`;
}

/** One line per program that did not check cleanly: its error count, codes and first error. */
function errorLines(results: Results, sizes: readonly number[]): string[] {
  const lines: string[] = [];
  for (const size of sizes) {
    for (const [framework, roles] of Object.entries(results[size]!)) {
      for (const [role, measured] of Object.entries(roles)) {
        if (measured.errors.length > 0) {
          lines.push(
            `  ${size} ${framework} ${role}: ${measured.errors.length} (${measured.errorCodes.join(", ")}) ${measured.errors[0]}`,
          );
        }
      }
    }
  }
  return lines;
}

/** What unruffled's testClient calls add against what the generated client adds, round by round. */
function callRatios(programs: Record<string, Record<string, Measurement>>): number[] {
  const { server, testClient, client, baseline } = programs.unruffled!;
  return roundCostRatios(testClient!, server!, client!, baseline!);
}

/** The same for the routes with a shared dependency and more parameters; empty when not measured. */
function dependencyCallRatios(programs: Record<string, Record<string, Measurement>>): number[] {
  const { depsServer, depsTestClient, depsClient, baseline } = programs.unruffled!;
  if (depsServer === undefined || depsTestClient === undefined || depsClient === undefined) return [];
  return roundCostRatios(depsTestClient, depsServer, depsClient, baseline!);
}

/** The target line of the routes with dependencies, or none when they were not measured. */
function dependencyTarget(size: number, programs: Record<string, Record<string, Measurement>>): string[] {
  const ratios = dependencyCallRatios(programs);
  if (ratios.length === 0) return [];
  const calls = atMost(ratios, 2);
  return [
    size === 400 || size === 1000
      ? `  at ${size}, routes with a shared dependency: testClient calls no slower than twice the generated client's: ${calls.text}: ${calls.met ? "met" : "NOT met"}`
      : `  at ${size}, routes with a shared dependency: testClient calls / generated client: ${calls.text}`,
  ];
}

/** The table of every size, the ratios, and each target of issue 29 with its verdict. */
export function printReport(results: Results, sizes: readonly number[], layout: Layout): string {
  const measured = Object.keys(results[sizes[0]!]!);
  if (!measured.includes("hono") || !measured.includes("orpc"))
    return printUnruffledReport(results, sizes, layout);
  const lines = [
    "",
    title(layout, ""),
    "",
    "| routes | unruffled server | + testClient calls | generated client + calls | Hono server | + hc calls | oRPC server | + oRPC client calls |",
    "| -----: | ---------------- | ------------------ | ------------------------ | ----------- | ---------- | ----------- | ------------------- |",
  ];
  const costs = new Map<number, Record<string, Cost>>();
  for (const size of sizes) {
    const { unruffled, hono, orpc } = results[size]! as Record<string, Record<string, Measurement>>;
    const row = {
      unruffledServer: unruffled!.server!,
      testClient: minus(unruffled!.testClient!, unruffled!.server!),
      generated: minus(unruffled!.client!, unruffled!.baseline!),
      honoServer: hono!.server!,
      hc: minus(hono!.client!, hono!.server!),
      orpcServer: orpc!.server!,
      orpcClient: minus(orpc!.client!, orpc!.server!),
    };
    costs.set(size, row);
    lines.push(
      `| ${size.toLocaleString("en")} | ${cell(row.unruffledServer)} | ${cell(row.testClient)} | ${cell(row.generated)} | ${cell(row.honoServer)} | ${cell(row.hc)} | ${cell(row.orpcServer)} | ${cell(row.orpcClient)} |`,
    );
  }
  lines.push("", "Errors:", ...errorLines(results, sizes), "", "Ratios and targets:");
  const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
  for (const size of sizes) {
    const row = costs.get(size)!;
    lines.push(
      `  ${size}: generated/hc time ${(row.generated!.seconds / row.hc!.seconds).toFixed(3)}×, memory ${(row.generated!.megabytes / row.hc!.megabytes).toFixed(3)}×; ` +
        `unruffled server / fastest peer ${median(serverRatios(results[size]!)).toFixed(2)}×; ` +
        `testClient / generated ${median(callRatios(results[size]!)).toFixed(2)}×`,
    );
  }
  const at1000 = costs.get(1000);
  if (at1000 !== undefined) {
    const g = at1000.generated!;
    lines.push(
      `  at 1,000: the generated client adds ≤ 0.3 s and ≤ 100 MB: ${verdict(g.seconds <= 0.3 && g.megabytes <= 100)}`,
    );
    lines.push(`  at 1,000: ≤ 0.15× what hc adds: ${verdict(g.seconds <= 0.15 * at1000.hc!.seconds)}`);
  }
  const at400 = costs.get(400);
  const at5000 = costs.get(5000);
  if (at400 !== undefined && at5000 !== undefined) {
    const growth = at5000.generated!.seconds / 5000 / (at400.generated!.seconds / 400);
    lines.push(`  per call, 400 → 5,000 routes: ${growth.toFixed(2)}× (≤ 1.5×): ${verdict(growth <= 1.5)}`);
    const deep = Object.values(results[5000]!.unruffled!).flatMap((measured) => measured.errorCodes);
    lines.push(
      `  no TS2589/TS7056 at 5,000: ${verdict(!deep.includes("TS2589") && !deep.includes("TS7056"))}`,
    );
  }
  for (const size of [400, 1000]) {
    if (!costs.has(size)) continue;
    const server = atMost(serverRatios(results[size]!), 1);
    lines.push(
      `  at ${size}: unruffled's server no slower than the fastest peer's: ${server.text}: ${verdict(server.met)}`,
    );
    const calls = atMost(callRatios(results[size]!), 2);
    lines.push(
      `  at ${size}: testClient calls no slower than twice the generated client's: ${calls.text}: ${verdict(calls.met)}`,
      ...dependencyTarget(size, results[size]!),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** unruffled's server program against the peer whose server checks fastest (by median), round by round. */
function serverRatios(programs: Record<string, Record<string, Measurement>>): number[] {
  const { unruffled, hono, orpc } = programs;
  const fastestPeer = hono!.server!.seconds <= orpc!.server!.seconds ? hono!.server! : orpc!.server!;
  return roundRatios(unruffled!.server!, fastestPeer);
}

/**
 * `--only unruffled`: its four programs alone, many rounds in little time (Hono's take most of a
 * run), for the target that reads them alone, the testClient calls against the generated client;
 * with `--only unruffled,orpc`, its server against oRPC's too (a ratio without a verdict: the
 * target names the fastest peer, and Hono was not measured).
 */
function printUnruffledReport(results: Results, sizes: readonly number[], layout: Layout): string {
  const lines = [
    "",
    title(layout, ", unruffled only"),
    "",
    "| routes | unruffled server | + testClient calls | generated client + calls | with a shared dependency: server | + testClient calls | generated client + calls |",
    "| -----: | ---------------- | ------------------ | ------------------------ | -------------------------------- | ------------------ | ------------------------ |",
  ];
  const targets: string[] = [];
  for (const size of sizes) {
    const { server, testClient, client, baseline, depsServer, depsTestClient, depsClient } =
      results[size]!.unruffled!;
    const dependencyCells =
      depsServer === undefined || depsTestClient === undefined || depsClient === undefined
        ? "– | – | –"
        : `${cell(depsServer)} | ${cell(minus(depsTestClient, depsServer))} | ${cell(minus(depsClient, baseline!))}`;
    const plainCells =
      server === undefined || testClient === undefined || client === undefined
        ? "– | – | –"
        : `${cell(server)} | ${cell(minus(testClient, server))} | ${cell(minus(client, baseline!))}`;
    lines.push(`| ${size.toLocaleString("en")} | ${plainCells} | ${dependencyCells} |`);
    const orpcServer = results[size]!.orpc?.server;
    if (orpcServer !== undefined && server !== undefined) {
      targets.push(
        `  at ${size}: unruffled's server / oRPC's: ${described(roundRatios(server!, orpcServer))}`,
      );
    }
    // The target holds at 400 and 1,000 routes; other sizes show the ratio alone.
    if (server !== undefined && testClient !== undefined && client !== undefined) {
      const ratios = callRatios(results[size]!);
      const calls = atMost(ratios, 2);
      targets.push(
        size === 400 || size === 1000
          ? `  at ${size}: testClient calls no slower than twice the generated client's: ${calls.text}: ${calls.met ? "met" : "NOT met"}`
          : `  at ${size}: testClient calls / generated client: ${described(ratios)}`,
      );
    }
    targets.push(...dependencyTarget(size, results[size]!));
  }
  return `${[...lines, "", "Errors:", ...errorLines(results, sizes), "", "Targets:", ...targets].join("\n")}\n`;
}
