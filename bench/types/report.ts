import type { Measurement } from "./measure.ts";

type Results = Record<number, Record<string, Record<string, Measurement>>>;

/** What a program adds to another: seconds and megabytes. */
interface Cost {
  seconds: number;
  megabytes: number;
}

const cell = (cost: Cost) => `${cost.seconds.toFixed(2)} s / ${cost.megabytes.toFixed(0)} MB`;
const minus = (a: Measurement, b: Measurement): Cost => ({
  seconds: a.seconds - b.seconds,
  megabytes: a.megabytes - b.megabytes,
});

/** The table of every size, the ratios, and each target of issue 29 with its verdict. */
export function printReport(results: Results, sizes: readonly number[]): string {
  const lines = [
    "",
    "Type-check cost (tsc --extendedDiagnostics --singleThreaded; medians): CPU time / memory used",
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
  lines.push("", "Errors:");
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
  lines.push("", "Ratios and targets:");
  const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
  for (const size of sizes) {
    const row = costs.get(size)!;
    const fastestPeer = Math.min(row.honoServer!.seconds, row.orpcServer!.seconds);
    lines.push(
      `  ${size}: generated/hc time ${(row.generated!.seconds / row.hc!.seconds).toFixed(3)}×, memory ${(row.generated!.megabytes / row.hc!.megabytes).toFixed(3)}×; ` +
        `unruffled server / fastest peer ${(row.unruffledServer!.seconds / fastestPeer).toFixed(2)}×; ` +
        `testClient / generated ${(row.testClient!.seconds / row.generated!.seconds).toFixed(2)}×`,
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
    const row = costs.get(size);
    if (row === undefined) continue;
    const fastestPeer = Math.min(row.honoServer!.seconds, row.orpcServer!.seconds);
    lines.push(
      `  at ${size}: unruffled's server no slower than the fastest peer's: ${verdict(row.unruffledServer!.seconds <= fastestPeer)}`,
    );
    lines.push(
      `  at ${size}: testClient calls no slower than twice the generated client's: ${verdict(row.testClient!.seconds <= 2 * row.generated!.seconds)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
