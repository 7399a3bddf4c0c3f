// The bench's child processes: servers (started pinned, ready at their first 200, stopped) and load
// generators (bench/load.ts, one JSON line each). Every child gets a scratch TMPDIR that is removed
// when the runner exits, however it exits. Used by run.ts and corun.ts.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { captureOutput } from "process-support";
import type { LoadGenerator, LoadResult, LoadSpec } from "./load.ts";
import type { EndpointDef } from "./suites/suite.ts";

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT_DIR = dirname(BENCH_DIR);

/** How each run loads a server: the run's settings, the same for every server and endpoint. */
export type RunSettings = {
  connections: number;
  pipelining: number;
  /** the shortest and the longest warm-up, seconds (see `LoadSpec`) */
  warmup: number;
  warmupMax: number;
  steadyPct: number;
  steadyWindows: number;
  duration: number;
  maxRequests: number;
};

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function procStatusKb(pid: number, field: string): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

export function hasTaskset(): boolean {
  const probe = spawnSync("taskset", ["--version"], { stdio: "ignore" });
  return probe.status === 0;
}

/** wrk's version ("debian/4.1.0-3+b2", "4.2.0"…) when `wrk` is on the PATH, else null. */
export function wrkVersion(): string | null {
  const probe = spawnSync("wrk", ["--version"], { encoding: "utf8" });
  if (probe.error) return null;
  return /^wrk\s+(\S+)/m.exec(`${probe.stdout}${probe.stderr}`)?.[1] ?? "unknown version";
}

export function pinned(
  cpu: string | null,
  args: string[],
  executable = process.execPath,
): [string, string[]] {
  if (cpu === null) return [executable, args];
  return ["taskset", ["-c", cpu, executable, ...args]];
}

/** Bun and Deno as the repository installs them (npm packages `bun`, `deno`), and how each runs a file. */
export function runtimeExecutable(runtime: "bun" | "deno"): { executable: string; args: string[] } {
  const executable = join(ROOT_DIR, "node_modules", ".bin", runtime);
  return { executable, args: runtime === "deno" ? ["run", "--allow-all", "--node-modules-dir=manual"] : [] };
}

// ---------------------------------------------------------------------------------------------
// Server lifecycle

export type Running = { child: ChildProcess; pid: number; port: number; startupMs: number };

const live = new Set<ChildProcess>();
// Every child's TMPDIR (a server's seeded database, wrk's script): removed when the runner exits, so a
// child killed with SIGKILL (Ctrl-C, or one that ignored SIGTERM) leaves nothing behind.
const scratch = mkdtempSync(join(os.tmpdir(), "bench-run-"));
const childEnv = (extra: Record<string, string> = {}) => ({ ...process.env, TMPDIR: scratch, ...extra });
process.on("exit", () => {
  for (const child of live) child.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    for (const child of live) child.kill("SIGKILL");
    process.exit(130);
  });
}

async function firstOk(url: string, deadline: number, exited: () => string | null): Promise<void> {
  for (;;) {
    const exit = exited();
    if (exit !== null) throw new Error(exit);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not accepting connections yet
    }
    if (performance.now() > deadline) throw new Error(`no 200 from ${url} in time`);
    await sleep(2);
  }
}

/** The error line of a crashed server's stderr (or its last lines), for the report. */
function errorSummary(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const error = lines.find((line) => /^(\w*Error\b|Error \[)/.test(line));
  const shown = error ?? lines.slice(-3).join(" | ");
  return shown ? `: ${shown.length > 300 ? `${shown.slice(0, 297)}...` : shown}` : "";
}

/**
 * What a server may be started with besides its file: Node flags before it, more environment, and
 * the runtime that runs it (Bun or Deno instead of the runner's Node).
 */
export type StartOptions = { nodeArgs?: string[]; env?: Record<string, string>; runtime?: "bun" | "deno" };

export async function startServer(
  file: string,
  readyPath: string,
  startTimeoutMs: number,
  cpu: string | null,
  options: StartOptions = {},
): Promise<Running> {
  if (!existsSync(file)) throw new Error(`${relative(ROOT_DIR, file)} does not exist`);
  // Every framework runs as its users run it: unruffled from its build (dist/), like the peers' packages.
  const other = options.runtime === undefined ? undefined : runtimeExecutable(options.runtime);
  const [command, args] =
    other === undefined
      ? pinned(cpu, [...(options.nodeArgs ?? []), file])
      : pinned(cpu, [...other.args, file], other.executable);
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT_DIR,
    env: childEnv({ PORT: "0", NODE_ENV: "production", ...options.env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  const output = captureOutput(child);
  let exitMessage: string | null = null;
  child.on("exit", (code, signal) => {
    live.delete(child);
    exitMessage = `exited (${signal ?? `code ${code}`}) before serving${errorSummary(output.stderr)}`;
  });
  child.on("error", (error) => {
    exitMessage = `could not be spawned: ${error.message}`;
  });
  const deadline = started + startTimeoutMs;
  try {
    let port = 0;
    while (port === 0) {
      if (exitMessage !== null) throw new Error(exitMessage);
      const match = /listening (\d+)/.exec(output.stdout);
      if (match) port = Number(match[1]);
      else if (performance.now() > deadline) throw new Error("did not print `listening <port>` in time");
      else await sleep(1);
    }
    await firstOk(`http://127.0.0.1:${port}${readyPath}`, deadline, () => exitMessage);
    const startupMs = performance.now() - started;
    if (child.pid === undefined) throw new Error("no pid");
    return { child, pid: child.pid, port, startupMs };
  } catch (error) {
    await stopServer(child);
    throw error;
  }
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// Load, from a second process

/** What load.ts sends to one endpoint of a running server: the suite's request, the run's settings. */
export function loadSpec(
  endpoint: EndpointDef,
  running: Running,
  settings: RunSettings,
  generator: LoadGenerator,
): LoadSpec {
  const sendsJson = endpoint.body !== undefined || endpoint.pairBody !== undefined;
  return {
    generator,
    url: `http://127.0.0.1:${running.port}${endpoint.path}`,
    method: endpoint.method,
    ...(endpoint.body === undefined ? {} : { body: endpoint.body }),
    ...(endpoint.pairBody === undefined ? {} : { pairBody: endpoint.pairBody }),
    ...(endpoint.bodyIncludes === undefined ? {} : { bodyIncludes: endpoint.bodyIncludes }),
    ...(sendsJson || endpoint.headers !== undefined
      ? { headers: { ...(sendsJson ? { "content-type": "application/json" } : {}), ...endpoint.headers } }
      : {}),
    connections: settings.connections,
    pipelining: settings.pipelining,
    warmup: settings.warmup,
    warmupMax: settings.warmupMax,
    steadyPct: settings.steadyPct,
    steadyWindows: settings.steadyWindows,
    duration: settings.duration,
    maxRequests: settings.maxRequests,
    serverPid: running.pid,
  };
}

export async function load(spec: LoadSpec, cpu: string | null): Promise<LoadResult> {
  const [command, args] = pinned(cpu, [join(BENCH_DIR, "load.ts"), JSON.stringify(spec)]);
  const child = spawn(command, args, { cwd: ROOT_DIR, env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
  live.add(child);
  const output = captureOutput(child);
  const limitMs = (Math.max(spec.warmup, spec.warmupMax) + 1 + spec.duration) * 1000 + 30_000;
  const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
  const code = await new Promise<number | null>((resolve) => {
    child.on("exit", (exitCode) => resolve(exitCode));
    child.on("error", () => resolve(-1));
  });
  clearTimeout(timer);
  live.delete(child);
  const line = output.stdout.trim().split("\n").pop() ?? "";
  if (code !== 0 || !line.startsWith("{")) {
    throw new Error(
      `load generator failed (exit ${code}): ${output.stderr.trim().split("\n").slice(-3).join(" | ")}`,
    );
  }
  return JSON.parse(line) as LoadResult;
}
