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
