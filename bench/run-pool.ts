// `--from a.json,b.json`: several finished runs of one suite read as one, their rounds numbered one
// after another. A target is judged on 64 pooled rounds or more; a run cut short by --budget can be
// topped up by a second run of the same code and settings instead of being started again.
import type { LoadGenerator } from "./load.ts";
import type { Config } from "./run-config.ts";
import type { ServerOutcome } from "./run-summary.ts";
import type { EndpointDef } from "./suites/suite.ts";

/** A results file as run.ts writes it (its `summary` is made again, so it is not read). */
export interface SavedRun {
  machine: { commit: string | null; date: string };
  config: Config & { roundsRun?: number; loadGenerator: LoadGenerator; pinned?: boolean };
  endpoints: EndpointDef[];
  servers: ServerOutcome[];
}

/** What must be the same in runs pooled as one: what decides what a sample measured. */
const SAME_SETTINGS = [
  "suite",
  "warmup",
  "warmupMax",
  "steadyPct",
  "steadyWindows",
  "duration",
  "connections",
  "pipelining",
  "loadGenerator",
  "pinned",
] as const;

const roundsOf = (run: SavedRun) => run.config.roundsRun ?? run.config.rounds;

const ids = (items: { id: string }[]) => items.map((item) => item.id).join(",");

/** Refuses, naming the file and what differs, a run that does not measure what the first one does. */
function checkPoolable(first: { file: string; run: SavedRun }, other: { file: string; run: SavedRun }): void {
  const differs = (what: string, mine: unknown, theirs: unknown) =>
    new Error(
      `--from: ${other.file} has ${what} ${JSON.stringify(theirs)}, ${first.file} ${JSON.stringify(mine)}; ` +
        "only runs of the same code, settings, servers and endpoints pool into one",
    );
  if (other.run.machine.commit !== first.run.machine.commit)
    throw differs("commit", first.run.machine.commit, other.run.machine.commit);
  for (const setting of SAME_SETTINGS) {
    if (other.run.config[setting] !== first.run.config[setting])
      throw differs(setting, first.run.config[setting], other.run.config[setting]);
  }
  if (ids(other.run.endpoints) !== ids(first.run.endpoints))
    throw differs("endpoints", ids(first.run.endpoints), ids(other.run.endpoints));
  if (ids(other.run.servers) !== ids(first.run.servers))
    throw differs("servers", ids(first.run.servers), ids(other.run.servers));
}

/** One server's outcomes in every run, its rounds shifted by `offsets[k]` in run k. */
function poolServer(outcomes: ServerOutcome[], files: string[], offsets: number[]): ServerOutcome {
  const measured = outcomes.filter((outcome) => outcome.status === "measured");
  const first = outcomes[0]!;
  const pooled: ServerOutcome = {
    id: first.id,
    label: first.label,
    status: measured.length > 0 ? "measured" : "skipped",
    warnings: [],
    roundFailures: [],
    startupMs: [],
    peakRssMB: [],
    endpoints: Object.fromEntries(Object.keys(first.endpoints).map((id) => [id, []])),
  };
  if (measured.length === 0 && first.reason !== undefined) pooled.reason = first.reason;
  outcomes.forEach((outcome, k) => {
    const offset = offsets[k]!;
    if (outcome.status === "skipped") pooled.warnings.push(`skipped in ${files[k]}: ${outcome.reason ?? ""}`);
    pooled.warnings.push(...outcome.warnings);
    pooled.roundFailures.push(
      ...outcome.roundFailures.map((failure) => ({ ...failure, round: failure.round + offset })),
    );
    pooled.startupMs.push(...outcome.startupMs);
    pooled.peakRssMB.push(...outcome.peakRssMB);
    for (const [id, samples] of Object.entries(outcome.endpoints)) {
      pooled.endpoints[id]!.push(...samples.map((sample) => ({ ...sample, round: sample.round + offset })));
    }
  });
  return pooled;
}

/**
 * The runs as one: the first run's settings, every run's samples with run k's rounds numbered after
 * those of the runs before it, so that a same-round ratio never pairs samples of two runs.
 */
export function poolRuns(runs: { file: string; run: SavedRun }[]): SavedRun {
  const [first, ...others] = runs;
  if (first === undefined) throw new Error("--from: no results file given");
  for (const other of others) checkPoolable(first, other);
  const offsets: number[] = [];
  let total = 0;
  for (const { run } of runs) {
    offsets.push(total);
    total += roundsOf(run);
  }
  const files = runs.map(({ file }) => file);
  return {
    machine: first.run.machine,
    config: { ...first.run.config, rounds: total, roundsRun: total },
    endpoints: first.run.endpoints,
    servers: first.run.servers.map((server) =>
      poolServer(
        runs.map(({ run }) => run.servers.find((candidate) => candidate.id === server.id)!),
        files,
        offsets,
      ),
    ),
  };
}
