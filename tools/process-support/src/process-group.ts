import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";

// Every group started here and not yet ended, so that a test's teardown ends them all.
const groups = new Set<ChildProcess>();

/**
 * Spawns `command` as the leader of a process group of its own (`detached`), so that
 * `endProcessGroups()` ends it with every process it started (cluster workers, a server it runs),
 * also when the test failed or timed out before it stopped them.
 * @example const child = spawnGroup(process.execPath, [server], { stdio: "pipe" }); afterEach(endProcessGroups);
 */
export function spawnGroup(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  groups.add(child);
  // A group whose leader exited may still hold workers: it is ended all the same, in teardown.
  return child;
}

/**
 * Sends SIGKILL to every process group `spawnGroup` started and resolves once their leaders have
 * exited. A group already gone is skipped.
 * @example afterEach(endProcessGroups);
 */
export async function endProcessGroups(): Promise<void> {
  const ending = [...groups];
  groups.clear();
  await Promise.all(ending.map(endProcessGroup));
}

/** SIGKILL to one group started by `spawnGroup`; resolves once its leader has exited. */
export function endProcessGroup(child: ChildProcess): Promise<void> {
  groups.delete(child);
  const exited =
    child.pid === undefined || child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once("exit", () => resolve()));
  if (child.pid !== undefined) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // ESRCH: the whole group has exited already.
    }
  }
  return exited;
}

/** How a process that ran to its end ended, and what it printed. */
export interface ProcessOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end in a process group of its own (see `spawnGroup`), so that a test that
 * times out waiting for it still ends it, with whatever it started, in `endProcessGroups()`.
 * @example const { code, stderr } = await runToEnd(process.execPath, [cli, "serve", app]);
 */
export async function runToEnd(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): Promise<ProcessOutcome> {
  const child = spawnGroup(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (exitCode: number | null) => resolve(exitCode ?? 1));
  });
  groups.delete(child);
  return { code, stdout, stderr };
}
