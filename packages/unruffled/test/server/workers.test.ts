import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { captureOutput, endProcessGroups, freePort, spawnGroup, waitFor } from "process-support";
import { afterEach, describe, expect, it, vi } from "vitest";

const fixture = join(import.meta.dirname, "..", "support", "workers-fixture.ts");
const scratch = mkdtempSync(join(tmpdir(), "unruffled-workers-"));

// The primary and its workers, also when a test failed before it stopped them.
afterEach(endProcessGroups);
// A process start gets 60 s on a busy 2-core machine.
const START_MS = 60_000;
vi.setConfig({ testTimeout: 180_000 });
afterEach(() => rmSync(join(scratch, "crash"), { force: true }));

/** Starts the fixture's primary and collects what it prints. */
function startCluster(mode: "crash" | "serve" | "stubborn", port = 0, extraEnv: Record<string, string> = {}) {
  const child = spawnGroup(process.execPath, ["--conditions=source", fixture], {
    env: {
      ...process.env,
      WORKERS_FIXTURE: mode,
      PORT: String(port),
      CRASH_MARKER: join(scratch, "crash"),
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = captureOutput(child);
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, output: () => output.combined, exited };
}

/** The pid of the worker that answered, on a fresh connection each time (the primary spreads connections). */
function pidOf(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = get(
      { host: "127.0.0.1", port, path: "/pid", agent: false, timeout: 2_000 },
      (response) => {
        let body = "";
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () => resolve((JSON.parse(body) as { pid: number }).pid));
      },
    );
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(undefined));
  });
}

describe("runWorkers", () => {
  it("stops the start when a worker fails before it ever listened: its one line, exit code 1, no restart", async () => {
    const cluster = startCluster("crash");
    expect(await cluster.exited).toBe(1);
    expect(cluster.output()).toBe("cannot start\n");
  });

  it("replaces a worker that crashes after the start after a delay that doubles up to its maximum", async () => {
    const port = await freePort();
    const cluster = startCluster("serve", port);
    const seen = new Set<number>();
    await waitFor(
      "answers from both workers",
      async () => {
        const pid = await pidOf(port);
        if (pid !== undefined) seen.add(pid);
        return seen.size === 2 ? true : undefined;
      },
      { timeoutMs: START_MS },
    );
    // From now on every replacement fails at start-up, as on a database that went away.
    writeFileSync(join(scratch, "crash"), "");
    const [victim] = seen;
    process.kill(victim!, "SIGKILL");
    const delays = () =>
      [...cluster.output().matchAll(/exited (?:with code 1|by SIGKILL); replacing it in (\d+) ms/g)].map(
        (match) => Number(match[1]),
      );
    await waitFor("four replacements", () => (delays().length >= 4 ? true : undefined), {
      timeoutMs: 60_000,
    });
    expect(delays().slice(0, 4)).toEqual([100, 200, 400, 400]);
    expect(await pidOf(port)).toBe([...seen][1]);

    cluster.child.kill("SIGTERM");
    expect(await cluster.exited).toBe(0);
    expect(cluster.output()).toContain("SIGTERM: stopping");
  });

  it("shares one port between workers, replaces a killed one, and stops them all on SIGTERM", async () => {
    const port = await freePort();
    const cluster = startCluster("serve", port);
    const seen = new Set<number>();
    await waitFor(
      "answers from both workers",
      async () => {
        const pid = await pidOf(port);
        if (pid !== undefined) seen.add(pid);
        return seen.size === 2 ? true : undefined;
      },
      { timeoutMs: START_MS },
    );

    // The first crash in a row is replaced after the shortest delay.
    const [victim] = seen;
    process.kill(victim!, "SIGKILL");
    const replacement = await waitFor(
      "an answer from a new worker",
      async () => {
        const pid = await pidOf(port);
        return pid !== undefined && !seen.has(pid) ? pid : undefined;
      },
      { timeoutMs: START_MS },
    );
    expect(replacement).not.toBe(victim);
    expect(cluster.output()).toMatch(
      new RegExp(`worker \\d \\(pid ${victim}\\) exited by SIGKILL; replacing it in 100 ms`),
    );

    cluster.child.kill("SIGTERM");
    expect(await cluster.exited).toBe(0);
    expect(cluster.output().match(/exited with code 0/g)).toHaveLength(2);
    expect(await pidOf(port)).toBeUndefined();
  });
});

describe("audit-b: runWorkers with one worker", () => {
  it("runs start in this process and resolves once it has", async () => {
    const { runWorkers } = await import("unruffled");
    const ran: number[] = [];
    await runWorkers({
      workers: 1,
      start: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        ran.push(process.pid);
      },
    });
    expect(ran).toEqual([process.pid]);
  });
});

describe("audit-b: the primary's shutdownTimeout", () => {
  it("kills a worker still running shutdownTimeout after SIGTERM, says so, and exits 1", async () => {
    const port = await freePort();
    const cluster = startCluster("stubborn", port, { SHUTDOWN_TIMEOUT: "1000" });
    const seen = new Set<number>();
    await waitFor(
      "answers from both workers",
      async () => {
        const pid = await pidOf(port);
        if (pid !== undefined) seen.add(pid);
        return seen.size === 2 ? true : undefined;
      },
      { timeoutMs: START_MS },
    );
    cluster.child.kill("SIGTERM");
    expect(await cluster.exited).toBe(1);
    const killed = [
      ...cluster.output().matchAll(/worker (\d+) still running after 1000 ms; killing it/g),
    ].map((match) => Number(match[1]));
    expect(killed.sort()).toEqual([...seen].sort());
    expect(cluster.output().match(/exited by SIGKILL/g)).toHaveLength(2);
  });

  it("waits 15 s by default before it kills a worker still running after SIGTERM", async () => {
    const port = await freePort();
    const cluster = startCluster("stubborn", port, { SHUTDOWN_TIMEOUT: "default" });
    const seen = new Set<number>();
    await waitFor(
      "answers from both workers",
      async () => {
        const pid = await pidOf(port);
        if (pid !== undefined) seen.add(pid);
        return seen.size === 2 ? true : undefined;
      },
      { timeoutMs: START_MS },
    );
    const signalled = performance.now();
    cluster.child.kill("SIGTERM");
    expect(await cluster.exited).toBe(1);
    // A lower bound only: a busy machine makes the wait longer, never shorter.
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(15_000);
    const killed = [
      ...cluster.output().matchAll(/worker (\d+) still running after 15000 ms; killing it/g),
    ].map((match) => Number(match[1]));
    expect(killed.sort()).toEqual([...seen].sort());
  });
});
