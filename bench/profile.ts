// Where an endpoint's time goes, server by server: each server is started pinned (as in
// `npm run bench`), checked, warmed up until steady, then profiled with V8's CPU profiler
// (profile-hook.ts) while wrk loads it; the profile's self time is summed by phase
// (profile-phases.ts) and printed per request and as shares.
//
//   npm run bench:profile -- --endpoint bind
//   npm run bench:profile -- --help
import { mkdirSync } from "node:fs";
import os from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { validate } from "./checks.ts";
import {
  BENCH_DIR,
  hasTaskset,
  load,
  loadSpec,
  ROOT_DIR,
  type Running,
  sleep,
  startServer,
  stopServer,
  wrkVersion,
} from "./processes.ts";
import { mergeProfiles, type PhaseProfile, phaseTable, readPhases } from "./profile-phases.ts";
import { frameworks } from "./suites/frameworks.ts";

const HELP = `Usage: npm run bench:profile -- [options]

  --endpoint E       endpoint of the frameworks suite (default bind): ${frameworks.endpoints.map((e) => e.id).join(", ")}
  --servers a,b      servers, in order (default raw,fastify,unruffled)
  --duration S       profiled seconds under load (default 5)
  --warmup-max S     longest warm-up before profiling; it ends once steady (default 15)
  --interval US      sampling interval of the profiler, µs (default 250)
  --connections N    wrk connections (default 50)
  --repeat N         profile every server N times, in turn, and add the profiles up (default 1)

Each profile is kept in bench/results/profile-<server>-<endpoint>-<date>-<n>.cpuprofile (open it in
Chrome's DevTools, Performance tab, to see the calls).
`;

function readConfig() {
  const { values } = parseArgs({
    options: {
      endpoint: { type: "string", default: "bind" },
      servers: { type: "string", default: "raw,fastify,unruffled" },
      duration: { type: "string", default: "5" },
      "warmup-max": { type: "string", default: "15" },
      interval: { type: "string", default: "250" },
      connections: { type: "string", default: "50" },
      repeat: { type: "string", default: "1" },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const endpoint = frameworks.endpoints.find((e) => e.id === values.endpoint);
  if (endpoint === undefined) throw new Error(`no endpoint "${values.endpoint}" in the frameworks suite`);
  const servers = values.servers.split(",").map((id) => {
    const server = frameworks.servers.find((s) => s.id === id.trim());
    if (server === undefined) throw new Error(`no server "${id}" in the frameworks suite`);
    return server;
  });
  const whole = (name: string, raw: string) => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number ≥ 1`);
    return value;
  };
  return {
    endpoint,
    servers,
    duration: whole("duration", values.duration),
    warmupMax: whole("warmup-max", values["warmup-max"]),
    interval: whole("interval", values.interval),
    connections: whole("connections", values.connections),
    repeat: whole("repeat", values.repeat),
  };
}

/** Resolves when the server prints `line` (the hook's acknowledgement of a signal). */
function printed(running: Running, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`no "${line}" from the server in 60 s`)), 60_000);
    running.child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      if (seen.includes(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

async function main(): Promise<void> {
  const config = readConfig();
  if (wrkVersion() === null) throw new Error("wrk is not installed (apt-get install wrk)");
  const canPin = hasTaskset() && os.availableParallelism() >= 2;
  const [serverCpu, loadCpu] = canPin ? ["0", "1"] : [null, null];
  const resultsDir = join(BENCH_DIR, "results");
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const log = (message: string) => process.stdout.write(`${message}\n`);
  log(
    `bench profile: ${config.endpoint.label}, ${config.servers.map((s) => s.id).join(", ")}; warm-up until ` +
      `steady (≤ ${config.warmupMax} s), then ${config.duration} s profiled every ${config.interval} µs, ` +
      `${config.connections} connections` +
      (canPin ? "; server on core 0, wrk on core 1" : "; not pinned"),
  );
  const profiles = new Map<string, PhaseProfile[]>(config.servers.map((s) => [s.id, []]));
  for (let repeat = 1; repeat <= config.repeat; repeat++)
    for (const server of config.servers) {
      const file = join(
        resultsDir,
        `profile-${server.id}-${config.endpoint.id}-${stamp}-${repeat}.cpuprofile`,
      );
      const running = await startServer(
        join(BENCH_DIR, server.file),
        frameworks.readyPath,
        30_000,
        serverCpu,
        {
          nodeArgs: ["--import", join(BENCH_DIR, "profile-hook.ts")],
          env: { BENCH_PROFILE_OUT: file, BENCH_PROFILE_INTERVAL_US: String(config.interval) },
        },
      );
      try {
        const checks = frameworks.checks.filter(
          (c) => c.path.split("?")[0] === config.endpoint.path.split("?")[0],
        );
        const report = await validate(running.port, checks, server.id);
        if (report.failures.length > 0)
          throw new Error(`${server.id} failed its checks: ${report.failures[0]}`);
        const settings = {
          connections: config.connections,
          pipelining: 1,
          warmup: 2,
          warmupMax: config.warmupMax,
          steadyPct: 5,
          steadyWindows: 3,
          duration: 1,
          maxRequests: 5_000_000,
        };
        const warm = await load(loadSpec(config.endpoint, running, settings, "wrk"), loadCpu);
        const started = printed(running, "bench-profile: started");
        running.child.kill("SIGUSR2");
        await started;
        const measured = await load(
          loadSpec(config.endpoint, running, { ...settings, warmup: 0, duration: config.duration }, "wrk"),
          loadCpu,
        );
        const written = printed(running, "bench-profile: written");
        running.child.kill("SIGUSR2");
        await written;
        await sleep(50);
        const failed = measured.non2xx + measured.errors + measured.timeouts;
        if (failed > 0) throw new Error(`${server.id}: ${failed} failed responses under load`);
        profiles.get(server.id)?.push(readPhases(file, server.id, measured.requests));
        log(
          `  ${server.id.padEnd(10)} warm-up ${warm.warmup?.seconds.toFixed(0)} s${warm.warmup?.steady ? "" : " (not steady)"}, ` +
            `${Math.round(measured.rps).toLocaleString("en-US")} req/s profiled, server CPU ${measured.serverCpuPct}%, ` +
            `other CPU ${measured.otherCpuPct}%  → ${relative(ROOT_DIR, file)}`,
        );
      } finally {
        await stopServer(running.child);
      }
    }
  log(`\n${phaseTable([...profiles.values()].filter((list) => list.length > 0).map(mergeProfiles))}`);
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench profile: ${(error as Error).message}\n`);
  process.exit(1);
}
