import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type ChildOutput, captureOutput, endProcessGroups, runToEnd, spawnGroup } from "process-support";
import { afterEach } from "vitest";

/** The repository's root: the CLI runs from there, as `npx unruffled` would. */
export const ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));
export const CLI = fileURLToPath(new URL("../../../src/cli.ts", import.meta.url));
export const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** How long a process gets to start and print its first line: enough on a busy 2-core machine. */
const START_DEADLINE_MS = 60_000;

// Every process a test started ends with the test, with the workers it forked, whether the test
// passed, failed or timed out.
afterEach(endProcessGroups);

/** Runs `unruffled <args>` to its end, under the Node that runs the tests. */
export function runCli(...args: string[]): Promise<Outcome> {
  return runCliWithEnv({}, ...args);
}

/** `runCli` with more environment variables. */
export function runCliWithEnv(env: Record<string, string>, ...args: string[]): Promise<Outcome> {
  return runToEnd(process.execPath, ["--conditions=source", CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
}

/** A running `unruffled` process whose output is kept, for commands that serve until a signal. */
export class CliProcess {
  readonly child: ChildProcess;
  private readonly output: ChildOutput;
  private readonly exited: Promise<number>;

  constructor(args: readonly string[], cwd = ROOT, env: Record<string, string> = {}) {
    this.child = spawnGroup(process.execPath, ["--conditions=source", CLI, ...args], {
      cwd,
      stdio: "pipe",
      env: { ...process.env, ...env },
    });
    this.output = captureOutput(this.child);
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
    });
  }

  /** What the process printed on standard output so far. */
  get stdout(): string {
    return this.output.stdout;
  }

  /** What the process printed on standard error so far. */
  get stderr(): string {
    return this.output.stderr;
  }

  /** Waits until standard error (or `stream`) matches, and returns the match; fails after 60 s. */
  async waitFor(pattern: RegExp, stream: "stdout" | "stderr" = "stderr"): Promise<RegExpMatchArray> {
    const deadline = Date.now() + START_DEADLINE_MS;
    for (;;) {
      const match = this[stream].match(pattern);
      if (match) return match;
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`No ${pattern} in ${stream}.\nstdout: ${this.stdout}\nstderr: ${this.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The base URL of the n-th `Serving … on http://…` line, once it is there. */
  async served(occurrence = 1): Promise<string> {
    const deadline = Date.now() + START_DEADLINE_MS;
    for (;;) {
      const urls = [...this.stderr.matchAll(/Serving .* on (http:\/\/[\d.:]+)/g)].map((match) => match[1]!);
      if (urls.length >= occurrence) return urls[occurrence - 1]!;
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`No Serving line ${occurrence}.\nstdout: ${this.stdout}\nstderr: ${this.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The exit code once the process ended. */
  exit(): Promise<number> {
    return this.exited;
  }

  /** Sends a signal and resolves to the exit code. */
  stop(signal: NodeJS.Signals = "SIGTERM"): Promise<number> {
    if (this.child.exitCode === null) this.child.kill(signal);
    return this.exited;
  }
}
