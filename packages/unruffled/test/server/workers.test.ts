import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { get } from "node:http";
import { join } from "node:path";
import { captureOutput, freePort, waitFor } from "process-support";
import { afterEach, describe, expect, it } from "vitest";

const fixture = join(import.meta.dirname, "..", "support", "workers-fixture.ts");
const started: ChildProcess[] = [];

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Starts the fixture's primary and collects what it prints. */
function startCluster(mode: "crash" | "serve", port = 0) {
  const child = spawn(process.execPath, ["--conditions=source", fixture], {
    env: { ...process.env, WORKERS_FIXTURE: mode, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
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
  it("replaces a worker that crashes at start-up after a delay that doubles up to its maximum", async () => {
    const cluster = startCluster("crash");
    const delaysOfWorker1 = () =>
      [
        ...cluster.output().matchAll(/worker 1 \(pid \d+\) exited with code 1; replacing it in (\d+) ms/g),
      ].map((match) => Number(match[1]));
    await waitFor("four replacements of worker 1", () => (delaysOfWorker1().length >= 4 ? true : undefined));
    expect(delaysOfWorker1().slice(0, 4)).toEqual([100, 200, 400, 400]);

    cluster.child.kill("SIGTERM");
    expect(await cluster.exited).toBe(0);
    expect(cluster.output()).toContain("SIGTERM: stopping");
  });

  it("shares one port between workers, replaces a killed one, and stops them all on SIGTERM", async () => {
    const port = await freePort();
    const cluster = startCluster("serve", port);
    const seen = new Set<number>();
    await waitFor("answers from both workers", async () => {
      const pid = await pidOf(port);
      if (pid !== undefined) seen.add(pid);
      return seen.size === 2 ? true : undefined;
    });

    // The first crash in a row is replaced after the shortest delay.
    const [victim] = seen;
    process.kill(victim!, "SIGKILL");
    const replacement = await waitFor("an answer from a new worker", async () => {
      const pid = await pidOf(port);
      return pid !== undefined && !seen.has(pid) ? pid : undefined;
    });
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
