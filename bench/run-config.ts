// The configuration of a run of bench/run.ts: defaults < environment (BENCH_*) < command-line flags.
import { parseArgs } from "node:util";
import type { LoadGenerator } from "./load.ts";
import { enrollment } from "./suites/enrollment.ts";
import { frameworks } from "./suites/frameworks.ts";
import { onBun, onDeno } from "./suites/runtimes.ts";
import type { Suite } from "./suites/suite.ts";

export const SUITES = { frameworks, enrollment, bun: onBun, deno: onDeno } satisfies Record<string, Suite>;
export type SuiteId = keyof typeof SUITES;
const isSuiteId = (id: string): id is SuiteId => Object.hasOwn(SUITES, id);

/** Other CPU (% of one core) above which a measured run counts as disturbed. */
export const NOISY_PCT = 20;

export type Config = {
  /** the suite measured */
  suite: SuiteId;
  quick: boolean;
  rounds: number;
  /** the shortest and longest warm-up, seconds; in between it goes on until the server is steady */
  warmup: number;
  warmupMax: number;
  /** steady: the last `steadyWindows` 1-second windows agree within `steadyPct` % in req per CPU-s */
  steadyPct: number;
  steadyWindows: number;
  duration: number;
  connections: number;
  /** no round starts after this many minutes (null: all the rounds) */
  budgetMinutes: number | null;
  /** `--from`: results files to report again, pooled (null: run the benchmark) */
  from: string[] | null;
  pipelining: number;
  maxRequests: number;
  startTimeoutMs: number;
  quietWait: number;
  retries: number;
  only: string[] | null;
  /** the endpoints loaded, in the suite's order; null: all of them */
  endpoints: string[] | null;
  pin: boolean;
  serverCpu: string;
  loadCpu: string;
  /** "auto": wrk when it is installed, autocannon otherwise */
  loadGenerator: "auto" | LoadGenerator;
};

const HELP = `Usage: npm run bench -- [options]
       npm run bench:enrollment -- [options]      (the same with --suite enrollment)

  --suite S            what is measured (default frameworks; env BENCH_SUITE):
${Object.values(SUITES)
  .map((suite) => `                         ${suite.id.padEnd(11)} ${suite.title}`)
  .join("\n")}
  --runtime R          bun or deno: the frameworks suite on that runtime's own server (the suite "bun"
                       or "deno": raw, Elysia (Bun), Hono + @hono/zod-validator, unruffled's serve())
  --quick              smoke run: 2 rounds, warm-ups of 1–4 s (steady within 10 % over 2 s), 1 s measured
  --rounds N           interleaved rounds (default 8; env BENCH_ROUNDS)
  --warmup S           shortest warm-up per server, endpoint and round (default 2; env BENCH_WARMUP); it
                       goes on in 1 s windows until the server is steady (below), up to --warmup-max
  --warmup-max S       longest warm-up; a server not steady by then is measured, marked unsteady (default 15)
  --steady-pct P       steady: the last --steady-windows 1 s windows agree within P % in requests per
                       second of the server's CPU time (default 5; env BENCH_STEADY_PCT)
  --steady-windows N   (default 3; env BENCH_STEADY_WINDOWS)
  --duration S         measured seconds per server and endpoint, every round (default 3; env BENCH_DURATION)
  --connections N      concurrent connections (default 50; env BENCH_CONNECTIONS)
  --from FILE[,FILE]   run nothing: report the results file FILE again (its suite, servers, endpoints,
                       settings and samples) with this version's summary and flags; several files of
                       the same code and settings are pooled, their rounds one after another
  --budget M           start no round after M minutes (default: none; env BENCH_BUDGET): a long run
                       ends with its summary when the time is up
  --pipelining N       HTTP pipelining factor (default 1; env BENCH_PIPELINING)
  --max-requests N     cap on requests per measured run, autocannon only (default 5000000; env BENCH_MAX_REQUESTS)
  --load-generator G   wrk or autocannon (default: wrk when installed, else autocannon; env BENCH_LOAD_GENERATOR)
  --only a,b           run only these servers (env BENCH_ONLY):
${Object.values(SUITES)
  .map(
    (suite) => `                         ${suite.id.padEnd(11)} ${suite.servers.map((s) => s.id).join(",")}`,
  )
  .join("\n")}
  --endpoints a,b      load only these endpoints (env BENCH_ENDPOINTS), with the route each is compared with:
${Object.values(SUITES)
  .map(
    (suite) =>
      `                         ${suite.id.padEnd(11)} ${suite.endpoints.map((e) => e.id).join(",")}`,
  )
  .join("\n")}
  --quiet-wait S       before each run, wait up to S seconds for the machine to be idle (default 2, quick 0.5; 0: never)
  --retries N          re-run a measurement disturbed by other processes (other CPU ≥ ${NOISY_PCT}% of a core) up
                       to N times, keeping the least disturbed run (default 1, quick 0; env BENCH_RETRIES)
  --no-pin             do not pin server and load generator to separate cores
  --server-cpu C       core for the server (default 0; env BENCH_SERVER_CPU)
  --load-cpu C         core for the load generator (default 1; env BENCH_LOAD_CPU)
  --help               this text
`;

export function readConfig(argv: string[]): Config {
  const { values } = parseArgs({
    args: argv,
    options: {
      suite: { type: "string" },
      runtime: { type: "string" },
      quick: { type: "boolean", default: false },
      rounds: { type: "string" },
      warmup: { type: "string" },
      "warmup-max": { type: "string" },
      "steady-pct": { type: "string" },
      "steady-windows": { type: "string" },
      budget: { type: "string" },
      from: { type: "string" },
      duration: { type: "string" },
      connections: { type: "string" },
      pipelining: { type: "string" },
      "max-requests": { type: "string" },
      only: { type: "string" },
      endpoints: { type: "string" },
      "quiet-wait": { type: "string" },
      retries: { type: "string" },
      "no-pin": { type: "boolean", default: false },
      "server-cpu": { type: "string" },
      "load-cpu": { type: "string" },
      "load-generator": { type: "string" },
      help: { type: "boolean", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const env = process.env;
  if (values.runtime !== undefined && values.runtime !== "bun" && values.runtime !== "deno")
    throw new Error(`--runtime must be bun or deno, got ${values.runtime}`);
  const suiteId = values.runtime ?? values.suite ?? env.BENCH_SUITE ?? "frameworks";
  if (!isSuiteId(suiteId))
    throw new Error(`--suite must be ${Object.keys(SUITES).join(" or ")}, got ${suiteId}`);
  const suite: Suite = SUITES[suiteId];
  const quick = values.quick || env.BENCH_QUICK === "1";
  const number = (flag: string | undefined, envValue: string | undefined, fallback: number, name: string) => {
    const raw = flag ?? envValue;
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0)
      throw new Error(`--${name} must be a non-negative number, got ${raw}`);
    return value;
  };
  const list = (raw: string | undefined) =>
    raw
      ? raw
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : null;
  const only = list(values.only ?? env.BENCH_ONLY);
  for (const id of only ?? []) {
    if (!suite.servers.some((s) => s.id === id))
      throw new Error(`--only: unknown server "${id}" in the ${suite.id} suite`);
  }
  const endpoints = list(values.endpoints ?? env.BENCH_ENDPOINTS);
  for (const id of endpoints ?? []) {
    const endpoint = suite.endpoints.find((e) => e.id === id);
    if (endpoint === undefined)
      throw new Error(`--endpoints: unknown endpoint "${id}" in the ${suite.id} suite`);
    // Its ratio to the route it is compared with needs that route in the same rounds.
    if (endpoint.baseline !== undefined && !endpoints!.includes(endpoint.baseline))
      throw new Error(`--endpoints: ${id} is compared with ${endpoint.baseline}; load both`);
  }
  const loadGenerator = values["load-generator"] ?? env.BENCH_LOAD_GENERATOR ?? "auto";
  if (loadGenerator !== "auto" && loadGenerator !== "wrk" && loadGenerator !== "autocannon")
    throw new Error(`--load-generator must be wrk or autocannon, got ${loadGenerator}`);
  return {
    suite: suiteId,
    quick,
    // Many short rounds rather than a few long ones: on a shared VM single runs vary by ±20 % even
    // seconds apart, and the per-round ratios' median needs many of them to settle.
    rounds: Math.max(1, Math.round(number(values.rounds, env.BENCH_ROUNDS, quick ? 2 : 8, "rounds"))),
    warmup: number(values.warmup, env.BENCH_WARMUP, quick ? 1 : 2, "warmup"),
    warmupMax: number(values["warmup-max"], env.BENCH_WARMUP_MAX, quick ? 4 : 15, "warmup-max"),
    steadyPct: number(values["steady-pct"], env.BENCH_STEADY_PCT, quick ? 10 : 5, "steady-pct"),
    steadyWindows: Math.max(
      2,
      Math.round(number(values["steady-windows"], env.BENCH_STEADY_WINDOWS, quick ? 2 : 3, "steady-windows")),
    ),
    duration: Math.max(0.5, number(values.duration, env.BENCH_DURATION, quick ? 1 : 3, "duration")),
    from: values.from === undefined ? null : values.from.split(",").filter((file) => file !== ""),
    budgetMinutes: (() => {
      const raw = values.budget ?? env.BENCH_BUDGET;
      return raw === undefined || raw === "" ? null : number(raw, undefined, 0, "budget");
    })(),
    connections: Math.max(
      1,
      Math.round(number(values.connections, env.BENCH_CONNECTIONS, 50, "connections")),
    ),
    pipelining: Math.max(1, Math.round(number(values.pipelining, env.BENCH_PIPELINING, 1, "pipelining"))),
    maxRequests: Math.max(
      1000,
      Math.round(number(values["max-requests"], env.BENCH_MAX_REQUESTS, 5_000_000, "max-requests")),
    ),
    startTimeoutMs: 20_000,
    quietWait: number(values["quiet-wait"], env.BENCH_QUIET_WAIT, quick ? 0.5 : 2, "quiet-wait"),
    retries: Math.round(number(values.retries, env.BENCH_RETRIES, quick ? 0 : 1, "retries")),
    only,
    endpoints,
    pin: !values["no-pin"] && env.BENCH_NO_PIN !== "1",
    serverCpu: values["server-cpu"] ?? env.BENCH_SERVER_CPU ?? "0",
    loadCpu: values["load-cpu"] ?? env.BENCH_LOAD_CPU ?? "1",
    loadGenerator,
  };
}
