import { describe, expect, it } from "vitest";
import { baselineLine, baselineReference, meets, pairReference, rpsLine, type Summary } from "./suite.ts";

describe("meets", () => {
  it("is met at or above the line", () => {
    expect(meets(1.02, [1.01, 1.04], 1)).toEqual({ met: true, note: "" });
  });

  it("is met, as a tie, when the interval holds the line below the median", () => {
    expect(meets(0.92, [0.89, 0.95], 0.95)).toEqual({ met: true, note: "; a tie at this noise: met" });
  });

  it("is missed when the whole interval lies below the line", () => {
    expect(meets(0.9, [0.88, 0.94], 0.95)).toEqual({ met: false, note: "" });
  });

  it("is decided by the median alone without an interval", () => {
    expect(meets(0.94, undefined, 0.95)).toEqual({ met: false, note: "" });
  });
});

// A summary with only what the target lines read.
function summary(perRound: number, interval: [number, number], over: [number, [number, number]]): Summary {
  const endpoint = (rps: number) => ({
    rps,
    perRound: { raw: perRound },
    perRoundInterval: { raw: interval },
  });
  return {
    unruffled: {
      startupMs: 200,
      peakRssMB: 100,
      endpoints: { list: { ...endpoint(95), overBaseline: { ratio: over[0], interval: over[1] } } },
    },
    raw: { startupMs: 180, peakRssMB: 90, endpoints: { list: endpoint(100) } },
  } as unknown as Summary;
}

describe("target lines", () => {
  it("marks a tie against a peer ✓", () => {
    expect(
      rpsLine("list: req/s vs raw node:http", summary(0.94, [0.92, 0.96], [1, [1, 1]]), "list", "raw", 0.95),
    ).toBe(
      "  ✓ list: req/s vs raw node:http             0.94× per round (95 %: 0.92–0.96), 0.95× of the medians (target ≥ 0.95×; a tie at this noise: met)",
    );
  });

  it("marks a tie against the endpoint's baseline ✓", () => {
    expect(
      baselineLine("secure: req/s vs its list route", summary(1, [1, 1], [0.92, [0.89, 0.95]]), "list", 0.95),
    ).toBe(
      "  ✓ secure: req/s vs its list route          0.92× per round (95 %: 0.89–0.95) (target ≥ 0.95×; a tie at this noise: met)",
    );
  });

  it("marks a miss ✗", () => {
    expect(
      rpsLine("list: req/s vs raw node:http", summary(0.9, [0.88, 0.93], [1, [1, 1]]), "list", "raw", 0.95),
    ).toBe(
      "  ✗ list: req/s vs raw node:http             0.90× per round (95 %: 0.88–0.93), 0.95× of the medians (target ≥ 0.95×)",
    );
  });

  it("prints another server's ratio to its baseline for reference, without a verdict", () => {
    const withRaw = summary(1, [1, 1], [0.93, [0.9, 0.96]]);
    withRaw.raw!.endpoints.list!.overBaseline = { ratio: 0.95, interval: [0.91, 0.98] };
    expect(baselineReference("limited on raw node:http, by hand", withRaw, "list", "raw")).toBe(
      "  · limited on raw node:http, by hand        0.95× per round (95 %: 0.91–0.98) (for reference)",
    );
  });

  it("says n/a for a server that did not serve the endpoint", () => {
    expect(
      baselineReference("limited on raw node:http, by hand", summary(1, [1, 1], [1, [1, 1]]), "list", "raw"),
    ).toBe("  · limited on raw node:http, by hand        n/a");
  });

  it("prints one server's same-round ratio to another for reference, without a verdict", () => {
    const paired = summary(1, [1, 1], [1, [1, 1]]);
    paired.raw!.endpoints.list!.perRound = { elysia: 0.93 };
    paired.raw!.endpoints.list!.perRoundInterval = { elysia: [0.91, 0.95] };
    expect(pairReference("list: raw vs Elysia", paired, "list", "raw", "elysia")).toBe(
      "  · list: raw vs Elysia                      0.93× per round (95 %: 0.91–0.95) (for reference)",
    );
    expect(pairReference("list: raw vs Hono", paired, "list", "raw", "hono")).toBe(
      "  · list: raw vs Hono                        n/a",
    );
  });
});
