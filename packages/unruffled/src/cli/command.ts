import { fsPromises } from "../node-builtins.ts";

/** Where a command writes: standard output and error in the CLI, buffers in tests. */
export interface CliIo {
  cwd: string;
  write(text: string): Promise<void>;
  error(text: string): Promise<void>;
}

/** One subcommand of `unruffled`; `run` resolves to the exit code. */
export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/** A mistake in the command line: printed with the usage, exit code 2. */
export class CliUsageError extends Error {
  override name = "CliUsageError";
}

/** A failure its message explains (a port in use, …): printed without a stack, exit code 1. */
export class CliFailure extends Error {
  override name = "CliFailure";
}

// What a write's failure means to the person who gave --out, by Node's error code.
const WRITE_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: "its folder does not exist",
  ENOTDIR: "a part of its path is a file, not a folder",
  EISDIR: "it is a folder",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
};

/**
 * Writes a command's output file; a failure is a `CliFailure` naming the file and why (a stack would
 * only hide that).
 *
 * @example await writeOutput("/tmp/missing/openapi.json", json) // CliFailure: Cannot write /tmp/missing/openapi.json: its folder does not exist.
 */
export async function writeOutput(file: string, text: string): Promise<void> {
  try {
    await fsPromises().writeFile(file, text);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new CliFailure(`Cannot write ${file}: ${WRITE_FAILURES[code ?? ""] ?? message}.`);
  }
}
