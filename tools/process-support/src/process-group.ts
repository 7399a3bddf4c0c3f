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
