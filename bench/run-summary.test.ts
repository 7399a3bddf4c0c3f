import { describe, expect, it } from "vitest";
import { type Sample, type ServerOutcome, summarize } from "./run-summary.ts";
import type { EndpointDef } from "./suites/suite.ts";

// A measured run of `rps` requests a second in `round`, steady and without failures.
function measured(round: number, rps: number): Sample {
  return {
    ...{ round, rps, requestsPerCpuS: rps, p50Ms: 1, p99Ms: 2, rssMB: 100, serverCpuPct: 100 },
    ...{ loadCpuPct: 70, otherCpuPct: 0, warmupS: 3, steady: true, warmupWindows: [rps, rps, rps] },
    ...{ requests: rps * 2, non2xx: 0, errors: 0, timeouts: 0, wrongBody: 0, warmupFailed: 0 },
    wrongBodySample: null,
  };
}

function outcome(id: string, hello: number[], limited: number[]): ServerOutcome {
  return {
    ...{ id, label: id, status: "measured", warnings: [], roundFailures: [], startupMs: [], peakRssMB: [] },
    endpoints: {
      hello: hello.map((rps, index) => measured(index + 1, rps)),
      limited: limited.map((rps, index) => measured(index + 1, rps)),
    },
  };
}

const endpoints: EndpointDef[] = [
  { id: "hello", label: "GET /hello", method: "GET", path: "/hello", validated: false },
  {
    id: "limited",
    label: "GET /limited/hello",
    method: "GET",
    path: "/limited/hello",
    baseline: "hello",
    validated: false,
  },
];

describe("summarize", () => {
  it("gives every server that serves an endpoint its ratio to the endpoint's baseline, round by round", () => {
    const servers = [
      { id: "raw", label: "raw", file: "servers/raw.ts" },
      { id: "unruffled", label: "unruffled", file: "servers/unruffled.ts" },
    ];
    const summary = summarize(
      servers,
      endpoints,
      new Map([
        ["raw", outcome("raw", [100, 200, 400], [90, 190, 400])],
        ["unruffled", outcome("unruffled", [100, 100, 100], [97, 80, 98])],
      ]),
      { steadyPct: 5, steadyWindows: 3 },
    );
    expect(summary.raw!.endpoints.limited!.overBaseline).toEqual({ ratio: 0.95, interval: undefined });
    expect(summary.unruffled!.endpoints.limited!.overBaseline).toEqual({ ratio: 0.97, interval: undefined });
    expect(summary.unruffled!.endpoints.hello!.overBaseline).toBeUndefined();
  });

  it("pairs every server with each other one, round by round, not unruffled alone", () => {
    const servers = [
      { id: "raw", label: "raw", file: "servers/raw.ts" },
      { id: "contract", label: "contract", file: "servers/contract.ts" },
      { id: "peer", label: "peer", file: "servers/peer.ts" },
    ];
    const summary = summarize(
      servers,
      endpoints,
      new Map([
        ["raw", outcome("raw", [100, 200, 400], [100, 200, 400])],
        ["contract", outcome("contract", [80, 100, 380], [80, 100, 380])],
        ["peer", outcome("peer", [100, 125, 400], [100, 125, 400])],
      ]),
      { steadyPct: 5, steadyWindows: 3 },
    );
    expect(summary.contract!.endpoints.hello!.perRound).toEqual({ raw: 0.8, peer: 0.8 });
    expect(summary.peer!.endpoints.hello!.perRound).toEqual({ raw: 1, contract: 1.25 });
  });
});
