import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ChildOutput, captureOutput, spawnGroup, waitFor } from "process-support";

export type RuntimeName = "node" | "bun" | "deno";

const packageRoot = fileURLToPath(new URL("../..", import.meta.url));
const bin = fileURLToPath(new URL("../../../../node_modules/.bin", import.meta.url));
const cli = join(packageRoot, "bin", "unruffled.js");

/** The package's folder: where the runtimes find its package.json (and Zod, for Deno). */
export { packageRoot };

/**
 * The command line that runs a TypeScript file on each runtime from the repository's sources: Node
 * is the test's own (24, from the `node` package); Bun and Deno come from their npm packages, and
 * take the "source" condition as a flag (Deno reads node_modules as it is, as Node does).
 */
export function runtimeCommand(
  runtime: RuntimeName,
  file: string,
  args: readonly string[],
): [string, string[]] {
  if (runtime === "node") return [process.execPath, ["--conditions=source", file, ...args]];
  if (runtime === "bun") return [join(bin, "bun"), ["--conditions=source", file, ...args]];
  return [
    join(bin, "deno"),
    ["run", "--allow-all", "--conditions=source", "--node-modules-dir=manual", file, ...args],
  ];
}

/** `unruffled serve <app> --port 0` on the runtime, from the sources. */
export function serveCommand(
  runtime: RuntimeName,
  appModule: string,
  extra: readonly string[] = [],
): [string, string[]] {
  return runtimeCommand(runtime, cli, ["serve", appModule, "--port", "0", ...extra]);
}

/** An app served by `unruffled serve` in a process of its own, on one runtime. */
export interface ServedApp {
  readonly child: ChildProcess;
  readonly output: ChildOutput;
  readonly origin: string;
  readonly port: number;
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts `unruffled serve` on the runtime, with `env` added to the test's environment, and resolves
 * once it tells the port it listens on.
 */
export function serveOn(
  runtime: RuntimeName,
  appModule: string,
  env: Record<string, string> = {},
): Promise<ServedApp> {
  return startOn(runtime, serveCommand(runtime, appModule), env, /on http:\/\/127\.0\.0\.1:(\d+) /);
}

/** Starts a command on the runtime and resolves once its standard error or output shows `listening`'s port. */
export async function startOn(
  runtime: RuntimeName,
  [command, args]: [string, string[]],
  env: Record<string, string>,
  listening: RegExp,
): Promise<ServedApp> {
  const child = spawnGroup(command, args, {
    cwd: packageRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  const output = captureOutput(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await waitFor(
    `${command} on ${runtime} to listen`,
    () => {
      if (child.exitCode !== null) throw new Error(`${command} exited on ${runtime}:\n${output.combined}`);
      const match = listening.exec(output.combined);
      return match ? Number(match[1]) : undefined;
    },
    { timeoutMs: 30_000 },
  );
  return { child, output, origin: `http://127.0.0.1:${port}`, port, exited };
}
