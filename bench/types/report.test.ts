import { expect, it } from "vitest";
import type { Measurement } from "./measure.ts";
import { minus, ratio } from "./report.ts";

/** A program measured in rounds of these CPU seconds (and megabytes). */
function measured(seconds: number[], megabytes = seconds.map(() => 100)): Measurement {
  return {
    seconds: Number.NaN,
    wallSeconds: Number.NaN,
    megabytes: Number.NaN,
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

it("reads how many times slower a program checks as the median of the same rounds' ratios", () => {
  expect(ratio(measured([1.1, 2.2, 0.9]), measured([1.0, 2.0, 1.0]))).toBeCloseTo(1.1, 10);
});
