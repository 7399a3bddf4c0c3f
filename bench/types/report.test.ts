import { expect, it } from "vitest";
import { type Measurement, median } from "./measure.ts";
import { atMost, minus, printReport, roundCostRatios, roundRatios } from "./report.ts";

/** A program measured in rounds of these CPU seconds (and megabytes). */
function measured(seconds: number[], megabytes = seconds.map(() => 100)): Measurement {
  return {
    seconds: median(seconds),
    wallSeconds: Number.NaN,
    megabytes: median(megabytes),
    instantiations: 0,
    errors: [],
    errorCodes: [],
    rounds: seconds.map((value, index) => ({ seconds: value, megabytes: megabytes[index]! })),
  };
}

it("reads what a program adds as the median of the same rounds' differences, not the difference of the medians", () => {
  // A slow second round lifts both programs; the medians' difference would be 2.0 - 1.1 = 0.9.
  const withCalls = measured([1.5, 2.6, 2.0]);
  const server = measured([1.0, 2.2, 1.1]);
  const added = minus(withCalls, server);
  expect(added.seconds).toBeCloseTo(0.5, 10);
  expect(added.megabytes).toBe(0);
});

it("reads how many times slower a program checks round by round", () => {
  expect(roundRatios(measured([1.1, 2.2, 0.9]), measured([1.0, 2.0, 1.0]))).toEqual([
    expect.closeTo(1.1, 10),
    expect.closeTo(1.1, 10),
    expect.closeTo(0.9, 10),
  ]);
});

it("reads how many times one program's addition is another's round by round", () => {
  const ratios = roundCostRatios(
    measured([1.4, 2.6]),
    measured([1.0, 2.0]),
    measured([0.4, 0.5]),
    measured([0.2, 0.2]),
  );
  expect(ratios).toEqual([expect.closeTo(2, 10), expect.closeTo(2, 10)]);
});

it("meets an at-most target at or below its line", () => {
  expect(atMost([0.9, 1.0, 0.95], 1)).toEqual({ met: true, text: "0.95× (95 % 0.90–1.00, 3 rounds)" });
});

it("counts a median above the line as met when its interval holds the line: a tie", () => {
  expect(atMost([0.9, 1.1, 1.2, 1.05, 0.95], 1)).toEqual({
    met: true,
    text: "1.05× (95 % 0.90–1.20, 5 rounds), a tie at this noise",
  });
});

it("misses an at-most target only when the whole interval lies above the line", () => {
  expect(atMost([1.1, 1.2, 1.15], 1)).toEqual({ met: false, text: "1.15× (95 % 1.10–1.20, 3 rounds)" });
});

it("reports unruffled's programs alone when the peers were left out (--only unruffled)", () => {
  const unruffled = {
    server: measured([2.0, 2.2, 2.1], [190, 190, 190]),
    testClient: measured([2.3, 2.5, 2.5], [220, 220, 220]),
    client: measured([0.4, 0.4, 0.4], [58, 58, 58]),
    baseline: measured([0.2, 0.2, 0.2], [33, 33, 33]),
    depsServer: measured([3.0, 3.2, 3.1], [210, 210, 210]),
    depsTestClient: measured([3.5, 3.8, 3.6], [250, 250, 250]),
    depsClient: measured([0.5, 0.5, 0.5], [60, 60, 60]),
  };
  expect(printReport({ 1000: { unruffled } }, [1000], "modules").split("\n")).toEqual([
    "",
    "Type-check cost (tsc --extendedDiagnostics --singleThreaded; medians), routes in modules of 50, unruffled only: CPU time / memory used",
    "",
    "| routes | unruffled server | + testClient calls | generated client + calls | with a shared dependency: server | + testClient calls | generated client + calls |",
    "| -----: | ---------------- | ------------------ | ------------------------ | -------------------------------- | ------------------ | ------------------------ |",
    "| 1,000 | 2.10 s / 190 MB | 0.30 s / 30 MB | 0.20 s / 25 MB | 3.10 s / 210 MB | 0.50 s / 40 MB | 0.30 s / 27 MB |",
    "",
    "Errors:",
    "",
    "Targets:",
    "  at 1000: testClient calls no slower than twice the generated client's: 1.50× (95 % 1.50–2.00, 3 rounds): met",
    "  at 1000, routes with a shared dependency: testClient calls no slower than twice the generated client's: 1.67× (95 % 1.67–2.00, 3 rounds): met",
    "",
  ]);
});

it("judges the testClient target at 400 and 1,000 routes only, and lists errors, when unruffled is alone", () => {
  const unruffled = {
    server: measured([10.0]),
    testClient: {
      ...measured([14.0]),
      errors: ["calls.ts(1,1): error TS2589: deep"],
      errorCodes: ["TS2589"],
    },
    client: measured([1.2]),
    baseline: measured([0.2]),
  };
  const report = printReport({ 5000: { unruffled } }, [5000], "modules").split("\n");
  expect(report.slice(report.indexOf("Errors:"))).toEqual([
    "Errors:",
    "  5000 unruffled testClient: 1 (TS2589) calls.ts(1,1): error TS2589: deep",
    "",
    "Targets:",
    "  at 5000: testClient calls / generated client: 4.00× (95 % 4.00–4.00, 1 rounds)",
    "",
  ]);
});

it("compares the server with oRPC's when unruffled and oRPC were measured without Hono", () => {
  const unruffled = {
    server: measured([2.4, 2.2, 2.3]),
    testClient: measured([2.8, 2.6, 2.7]),
    client: measured([0.4, 0.4, 0.4]),
    baseline: measured([0.2, 0.2, 0.2]),
  };
  const orpc = { server: measured([2.0, 2.0, 2.0]), client: measured([2.6, 2.6, 2.6]) };
  const report = printReport({ 1000: { unruffled, orpc } }, [1000], "file").split("\n");
  expect(report.slice(report.indexOf("Targets:"))).toEqual([
    "Targets:",
    "  at 1000: unruffled's server / oRPC's: 1.15× (95 % 1.10–1.20, 3 rounds)",
    "  at 1000: testClient calls no slower than twice the generated client's: 2.00× (95 % 2.00–2.00, 3 rounds): met",
    "",
  ]);
});
