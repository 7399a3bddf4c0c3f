// The machine a run of bench/run.ts measures on: who it is (for the results file), and whether
// other processes keep it busy (the quiet wait before each run, and what it cost).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { BENCH_DIR, ROOT_DIR, sleep } from "./processes.ts";

/** Busy ticks of the whole machine (user, nice, system, irq, softirq, steal), or null without /proc. */
function machineBusyTicks(): number | null {
  try {
    const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return user + nice + system + irq + softirq + steal;
  } catch {
    return null;
  }
}

export const quietWaits = { ms: 0 };
export const noisyRetries = { count: 0 };

/**
 * Other engineers' test suites share the machine: before a run, wait (up to `maxSeconds`) until the
 * machine uses less than a quarter of a core in a 200 ms window (the idle server is included).
 * Returns the time waited beyond the first window.
 */
export async function waitForQuiet(maxSeconds: number): Promise<number> {
  if (maxSeconds <= 0) return 0;
  const started = performance.now();
  for (;;) {
    const before = machineBusyTicks();
    await sleep(200);
    const after = machineBusyTicks();
    if (before === null || after === null) return 0;
    const coreFraction = (after - before) / 100 / 0.2; // USER_HZ = 100
    const waited = performance.now() - started;
    if (coreFraction < 0.25 || waited >= maxSeconds * 1000) return Math.max(0, waited - 200);
  }
}

function packageVersion(name: string): string | null {
  for (const base of [join(BENCH_DIR, "node_modules"), join(ROOT_DIR, "node_modules")]) {
    try {
      return (JSON.parse(readFileSync(join(base, name, "package.json"), "utf8")) as { version: string })
        .version;
    } catch {
      // try the next location
    }
  }
  return null;
}

export function machineInfo() {
  const cpus = os.cpus();
  const git = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT_DIR, encoding: "utf8" });
  return {
    date: new Date().toISOString(),
    cpuModel: cpus[0]?.model ?? "unknown",
    cores: os.availableParallelism(),
    memoryGB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    commit: git.status === 0 ? git.stdout.trim() : null,
    versions: Object.fromEntries(
      [
        "fastify",
        "hono",
        "@hono/node-server",
        "express",
        "zod",
        "autocannon",
        "unruffled",
        "kysely",
        "better-sqlite3",
      ].map((name) => [name, packageVersion(name)]),
    ),
  };
}
