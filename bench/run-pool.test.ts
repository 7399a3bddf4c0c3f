import { describe, expect, it } from "vitest";
import type { Config } from "./run-config.ts";
import { poolRuns, type SavedRun } from "./run-pool.ts";
import { roundRatios, type Sample, type ServerOutcome } from "./run-summary.ts";
import type { EndpointDef } from "./suites/suite.ts";

const sample = (round: number, rps: number): Sample => ({
  round,
  rps,
  requestsPerCpuS: rps,
  p50Ms: 1,
  p99Ms: 2,
  rssMB: 100,
  serverCpuPct: 100,
  loadCpuPct: 70,
  otherCpuPct: 0,
  warmupS: 3,
  steady: true,
  warmupWindows: [rps, rps, rps],
  requests: rps * 3,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  wrongBody: 0,
  warmupFailed: 0,
  wrongBodySample: null,
});

const server = (id: string, rpsByRound: number[], extra: Partial<ServerOutcome> = {}): ServerOutcome => ({
  id,
  label: id,
  status: "measured",
  warnings: [],
  roundFailures: [],
  startupMs: rpsByRound.map(() => 200),
  peakRssMB: rpsByRound.map(() => 110),
  endpoints: { hello: rpsByRound.map((rps, index) => sample(index + 1, rps)) },
  ...extra,
});

const HELLO: EndpointDef = {
  id: "hello",
  label: "GET /hello",
  method: "GET",
  path: "/hello",
  validated: false,
};

function run(servers: ServerOutcome[], config: Partial<SavedRun["config"]> = {}, commit = "abc"): SavedRun {
  const rounds = servers[0]!.endpoints.hello!.length;
  return {
    machine: { commit, date: "2026-11-25T00:00:00.000Z" },
    config: {
      suite: "frameworks",
      rounds,
      roundsRun: rounds,
      warmup: 2,
      warmupMax: 15,
      steadyPct: 5,
      steadyWindows: 3,
      duration: 3,
      connections: 50,
      pipelining: 1,
      loadGenerator: "wrk",
      pinned: true,
      ...config,
    } as Config & SavedRun["config"],
    endpoints: [HELLO],
    servers,
  };
}

describe("poolRuns", () => {
  it("numbers the second run's rounds after the first's", () => {
    const pooled = poolRuns([
      { file: "a.json", run: run([server("raw", [100, 110]), server("unruffled", [90, 99])]) },
      { file: "b.json", run: run([server("raw", [120]), server("unruffled", [108])]) },
    ]);
    const unruffled = pooled.servers.find((s) => s.id === "unruffled")!;
    expect(unruffled.endpoints.hello!.map((s) => [s.round, s.rps])).toEqual([
      [1, 90],
      [2, 99],
      [3, 108],
    ]);
    expect(pooled.config.rounds).toBe(3);
    expect(pooled.config.roundsRun).toBe(3);
    expect(unruffled.startupMs).toEqual([200, 200, 200]);
  });

  it("pairs each sample only with the same run's round", () => {
    const pooled = poolRuns([
      { file: "a.json", run: run([server("raw", [100]), server("unruffled", [90])]) },
      { file: "b.json", run: run([server("raw", [200]), server("unruffled", [190])]) },
    ]);
    const [raw, unruffled] = pooled.servers;
    expect(roundRatios(unruffled!.endpoints.hello!, raw!.endpoints.hello!)).toEqual([
      { round: 1, ratio: 0.9 },
      { round: 2, ratio: 0.95 },
    ]);
  });

  it("shifts the rounds of failures with their run", () => {
    const failing = server("raw", [100], { roundFailures: [{ round: 1, reason: "crashed" }] });
    const pooled = poolRuns([
      { file: "a.json", run: run([server("raw", [100, 100])]) },
      { file: "b.json", run: run([failing]) },
    ]);
    expect(pooled.servers[0]!.roundFailures).toEqual([{ round: 3, reason: "crashed" }]);
  });

  it("keeps a server skipped in one run measured, with a warning naming that run", () => {
    const skipped = server("fastify", [], { status: "skipped", reason: "failed to start" });
    const pooled = poolRuns([
      { file: "a.json", run: run([server("raw", [100]), server("fastify", [80])]) },
      { file: "b.json", run: run([server("raw", [100]), skipped]) },
    ]);
    expect(pooled.servers[1]!.status).toBe("measured");
    expect(pooled.servers[1]!.warnings).toEqual(["skipped in b.json: failed to start"]);
  });

  it("refuses runs of different settings, naming the file and both values", () => {
    expect(() =>
      poolRuns([
        { file: "a.json", run: run([server("raw", [100])]) },
        { file: "b.json", run: run([server("raw", [100])], { duration: 5 }) },
      ]),
    ).toThrow(
      "--from: b.json has duration 5, a.json 3; only runs of the same code, settings, servers and endpoints pool into one",
    );
  });

  it("refuses runs of different commits", () => {
    expect(() =>
      poolRuns([
        { file: "a.json", run: run([server("raw", [100])]) },
        { file: "b.json", run: run([server("raw", [100])], {}, "def") },
      ]),
    ).toThrow('--from: b.json has commit "def", a.json "abc"');
  });

  it("refuses runs of different servers", () => {
    expect(() =>
      poolRuns([
        { file: "a.json", run: run([server("raw", [100])]) },
        { file: "b.json", run: run([server("raw", [100]), server("unruffled", [90])]) },
      ]),
    ).toThrow('--from: b.json has servers "raw,unruffled", a.json "raw"');
  });

  it("reads a single run as it is", () => {
    const single = run([server("raw", [100, 110])]);
    expect(poolRuns([{ file: "a.json", run: single }])).toEqual(single);
  });

  it("refuses an empty list", () => {
    expect(() => poolRuns([])).toThrow("--from: no results file given");
  });
});
