import type { ChildProcess } from "node:child_process";

/** What a child process printed so far: the strings grow as its output arrives. */
export interface ChildOutput {
  readonly stdout: string;
  readonly stderr: string;
  /** Standard output and error together, in the order their chunks arrived. */
  readonly combined: string;
}

/**
 * Collects a piped child's standard output and error as they arrive, decoded as UTF-8.
 * @example const output = captureOutput(spawn(process.execPath, [file], { stdio: "pipe" })); output.stderr;
 */
export function captureOutput(child: ChildProcess): ChildOutput {
  const output = { stdout: "", stderr: "", combined: "" };
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output.stdout += chunk;
    output.combined += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output.stderr += chunk;
    output.combined += chunk;
  });
  return output;
}
