// Two servers measured at the same time on the same core, to compare two versions of one server
// (unruffled before and after a change) more finely than run.ts can on a shared VM.
//
// run.ts loads one server at a time, and this VM's speed moves by 10–25 % from one second to the
// next: the same-round ratio of two runs a few seconds apart varies by about 20 %, so a change of 1 %
// is lost in 30 rounds. Here both servers are pinned to one core and loaded at once, each by its own
// wrk on the other core; whatever slows the machine slows both in the same instant, and the ratio of
// a 2-second sample varies by 3–10 % (unruffled against itself). Each server's CPU time is read too:
// requests per CPU-second is each one's cost, whatever share of the core the scheduler gave it.
//
// Not a substitute for run.ts between different frameworks: two processes on one core share its
// caches, and the one whose hot code and data are larger loses more than it would alone (unruffled vs
// Fastify on /hello: 1.3× here, about 1.0–1.05× alone). Between two versions of one server, whose
// footprints are alike, that cancels out.
//
//   npm run bench:corun -- --a bench/servers/unruffled.ts --b /tmp/old/bench/servers/unruffled.ts
//   npm run bench:corun -- --help
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { validate } from "./checks.ts";
import type { LoadResult } from "./load.ts";
import {
  BENCH_DIR,
  hasTaskset,
  load,
  loadSpec,
  ROOT_DIR,
  type Running,
  startServer,
  stopServer,
  wrkVersion,
} from "./processes.ts";
import { median, medianInterval } from "./stats.ts";
import { enrollment } from "./suites/enrollment.ts";
import { frameworks } from "./suites/frameworks.ts";
import { appliesTo, type Check, type EndpointDef, type Suite } from "./suites/suite.ts";

/** Not a server of the suite: what corun checks and loads by default is what every server answers. */
const COMMON = "(any server)";

const HELP = `Usage: npm run bench:corun -- --a FILE --b FILE [options]

Starts server files A and B (each prints \`listening <port>\`, like bench/servers/*.ts) on one core,
checks both against the suite, and loads each endpoint on both at once, in rounds. Prints A/B per
round: requests/s, and requests per CPU-second of each server, as medians with 95 % intervals.

  --a FILE, --b FILE   the two servers (paths from the repository root, or absolute: a server
                       file in another worktree runs that worktree's build)
  --suite S            frameworks (default) or enrollment: the endpoints and the checks
  --endpoints a,b      endpoint ids (default: those every server of the suite answers)
  --rounds N           rounds; both servers are started afresh each round (default 12)
  --warmup S           warm-up seconds, both servers at once (default 1)
  --duration S         measured seconds (default 2)
  --connections N      connections to each server (default 16)
  --server-cpu C       the core both servers share (default 0)
  --load-cpu C         the core both wrk processes share (default 1)
  --runtime R          node (default), bun or deno: the runtime both servers run on (bench/servers/web/*.ts
                       on Bun or Deno)

Needs wrk (apt-get install wrk), taskset and two cores: autocannon could not load both at once.
`;

type CorunConfig = {
  a: string;
  b: string;
  suite: Suite;
  endpoints: EndpointDef[];
  rounds: number;
  warmup: number;
  duration: number;
  connections: number;
  serverCpu: string;
  loadCpu: string;
  runtime: "bun" | "deno" | undefined;
};

/** One endpoint in one round: what each server did while both were loaded. */
type Pair = { round: number; a: LoadResult; b: LoadResult };

function readConfig(argv: string[]): CorunConfig {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      a: { type: "string" },
      b: { type: "string" },
      suite: { type: "string", default: "frameworks" },
      endpoints: { type: "string" },
      rounds: { type: "string", default: "12" },
      warmup: { type: "string", default: "1" },
      duration: { type: "string", default: "2" },
      connections: { type: "string", default: "16" },
      "server-cpu": { type: "string", default: "0" },
      "load-cpu": { type: "string", default: "1" },
      runtime: { type: "string", default: "node" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  if (values.a === undefined || values.b === undefined) throw new Error("--a and --b are both required");
  const suites: Record<string, Suite> = { frameworks, enrollment };
  const suite = Object.hasOwn(suites, values.suite) ? suites[values.suite] : undefined;
  if (suite === undefined) throw new Error(`--suite must be frameworks or enrollment, got ${values.suite}`);
  const ids =
    values.endpoints?.split(",").map((id) => id.trim()) ??
    suite.endpoints.filter((e) => appliesTo(e, COMMON)).map((e) => e.id);
  const endpoints = ids.map((id) => {
    const endpoint = suite.endpoints.find((e) => e.id === id);
    if (endpoint === undefined) {
      throw new Error(`no endpoint "${id}" in ${suite.id}: ${suite.endpoints.map((e) => e.id).join(", ")}`);
    }
    return endpoint;
  });
  const whole = (name: string, raw: string, min: number) => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min)
      throw new Error(`--${name} must be an integer ≥ ${min}, got ${raw}`);
    return value;
  };
  return {
    a: resolve(ROOT_DIR, values.a),
    b: resolve(ROOT_DIR, values.b),
    suite,
    endpoints,
    rounds: whole("rounds", values.rounds, 1),
    // wrk measures whole seconds
    warmup: whole("warmup", values.warmup, 0),
    duration: whole("duration", values.duration, 1),
    connections: whole("connections", values.connections, 1),
    serverCpu: values["server-cpu"],
    loadCpu: values["load-cpu"],
    runtime: runtimeOf(values.runtime),
  };
}

function runtimeOf(name: string): "bun" | "deno" | undefined {
  if (name === "bun" || name === "deno") return name;
  if (name === "node") return undefined;
  throw new Error(`--runtime must be node, bun or deno, got ${name}`);
}

/** Starts a server and checks it against the suite; stops it and throws when a check fails. */
async function startChecked(file: string, config: CorunConfig): Promise<Running> {
  const running = await startServer(file, config.suite.readyPath, 30_000, config.serverCpu, {
    runtime: config.runtime,
  });
  // Any two versions are compared, an older one too: only the checks every server of the suite
  // passes, of the endpoints loaded (an older version may lack the others).
  const report = await validate(running.port, checksOf(config), COMMON);
  if (report.failures.length > 0) {
    await stopServer(running.child);
    throw new Error(
      `${relative(ROOT_DIR, file)} failed its checks: ${report.failures.slice(0, 3).join("; ")}`,
    );
  }
  return running;
}

/** The suite's checks of the paths that the loaded endpoints request. */
function checksOf(config: CorunConfig): Check[] {
  const pathOf = (target: string) => target.split("?")[0];
  const loaded = new Set(config.endpoints.map((endpoint) => pathOf(endpoint.path)));
  return config.suite.checks.filter((check) => loaded.has(pathOf(check.path)));
}

function failed(result: LoadResult): number {
  const warm = result.warmup;
  const warmFailed = warm ? warm.non2xx + warm.errors + warm.timeouts + warm.wrongBody : 0;
  return result.non2xx + result.errors + result.timeouts + result.wrongBody + warmFailed;
}

/** Requests per second of the server's own CPU time, or NaN when /proc gave none. */
function requestsPerCpuSecond(result: LoadResult): number {
  if (result.serverCpuPct === null || result.serverCpuPct === 0) return Number.NaN;
  return result.rps / (result.serverCpuPct / 100);
}

function fmtRatio(values: number[]): string {
  const [low, high] = medianInterval(values);
  return `${median(values).toFixed(3)}× (95 % ${low.toFixed(3)}–${high.toFixed(3)})`;
}

function report(config: CorunConfig, pairs: Map<string, Pair[]>, excluded: Map<string, number>): string {
  const out: string[] = [];
  out.push(`A = ${relative(ROOT_DIR, config.a)}`, `B = ${relative(ROOT_DIR, config.b)}`);
  for (const endpoint of config.endpoints) {
    const samples = pairs.get(endpoint.id) ?? [];
    out.push(
      "",
      `${endpoint.method} ${endpoint.path}  (${samples.length} round(s), ${excluded.get(endpoint.id) ?? 0} left out)`,
    );
    if (samples.length === 0) continue;
    const throughput = samples.map((s) => s.a.rps / s.b.rps);
    const cost = samples
      .map((s) => requestsPerCpuSecond(s.a) / requestsPerCpuSecond(s.b))
      .filter((ratio) => Number.isFinite(ratio));
    const share = samples.flatMap((s) =>
      s.a.serverCpuPct === null || s.b.serverCpuPct === null
        ? []
        : [s.a.serverCpuPct / (s.a.serverCpuPct + s.b.serverCpuPct)],
    );
    out.push(
      `  req/s                A ${Math.round(median(samples.map((s) => s.a.rps)))}, B ${Math.round(median(samples.map((s) => s.b.rps)))}`,
      `  A/B req/s            ${fmtRatio(throughput)}`,
      `  A/B req per CPU-s    ${cost.length > 0 ? fmtRatio(cost) : "n/a (no /proc)"}`,
      `  A's share of the core ${share.length > 0 ? `${(median(share) * 100).toFixed(1)} %` : "n/a"}`,
    );
  }
  out.push(
    "",
    "Ratios: the median over the rounds of A over B in the same round; 95 % intervals by bootstrap. A ratio",
    "above 1 means A served more (req/s) or spent less CPU per request (req per CPU-s).",
  );
  return out.join("\n");
}

async function main(): Promise<void> {
  const config = readConfig(process.argv.slice(2));
  if (wrkVersion() === null) throw new Error("wrk is not installed (apt-get install wrk)");
  if (!hasTaskset() || os.availableParallelism() < 2) throw new Error("needs taskset and two cores");
  const settings = {
    connections: config.connections,
    pipelining: 1,
    // both servers are measured at the same time: a fixed warm-up, not one until each is steady
    warmup: config.warmup,
    warmupMax: config.warmup,
    steadyPct: 100,
    steadyWindows: 1,
    duration: config.duration,
    maxRequests: 5_000_000,
  };
  const pairs = new Map<string, Pair[]>(config.endpoints.map((e) => [e.id, []]));
  const excluded = new Map<string, number>();
  const log = (message: string) => process.stdout.write(`${message}\n`);
  log(
    `bench corun: ${config.endpoints.map((e) => e.id).join(", ")}, ${config.rounds} round(s) of ` +
      `${config.warmup}s warm-up + ${config.duration}s, ${config.connections} connections each; ` +
      `servers on core ${config.serverCpu}, wrk on core ${config.loadCpu}`,
  );
  for (let round = 1; round <= config.rounds; round++) {
    const a = await startChecked(config.a, config);
    let b: Running | undefined;
    const parts: string[] = [];
    try {
      b = await startChecked(config.b, config);
      for (const endpoint of config.endpoints) {
        const [resultA, resultB] = await Promise.all([
          load(loadSpec(endpoint, a, settings, "wrk"), config.loadCpu),
          load(loadSpec(endpoint, b, settings, "wrk"), config.loadCpu),
        ]);
        if (failed(resultA) + failed(resultB) > 0) {
          excluded.set(endpoint.id, (excluded.get(endpoint.id) ?? 0) + 1);
          parts.push(`${endpoint.id}: failed responses, left out`);
          continue;
        }
        pairs.get(endpoint.id)?.push({ round, a: resultA, b: resultB });
        parts.push(`${endpoint.id} ${(resultA.rps / resultB.rps).toFixed(3)}`);
      }
    } finally {
      await stopServer(a.child);
      if (b !== undefined) await stopServer(b.child);
    }
    log(`round ${round}/${config.rounds}: A/B ${parts.join(", ")}`);
  }
  log(`\n${report(config, pairs, excluded)}`);
  const resultsDir = join(BENCH_DIR, "results");
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `corun-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  const { suite, endpoints, ...rest } = config;
  writeFileSync(
    file,
    `${JSON.stringify({ config: { ...rest, suite: suite.id, endpoints: endpoints.map((e) => e.id) }, pairs: Object.fromEntries(pairs), excluded: Object.fromEntries(excluded) }, null, 2)}\n`,
  );
  log(`results written to ${relative(ROOT_DIR, file)}`);
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench corun: ${(error as Error).message}\n`);
  process.exit(1);
}
