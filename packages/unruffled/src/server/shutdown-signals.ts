export interface ShutdownSignalOptions {
  /** The signals that start the shutdown (default SIGTERM and SIGINT). */
  signals?: readonly NodeJS.Signals[];
  /** Where progress is told (default `console.log`, failures `console.error`). */
  log?: { info(message: string): void; error(message: string): void };
  /** How the process ends (default `process.exit`); tests pass their own. */
  exit?: (code: number) => void;
}

const consoleLog = {
  info: (message: string) => console.log(message),
  error: (message: string) => console.error(message),
};

/**
 * Runs `shutdown` once on the first SIGTERM or SIGINT, then exits: 0 when it resolves, 1 when it
 * fails. A second signal while it runs is ignored, so that Ctrl-C reaching a whole process group
 * (or a cluster primary forwarding it) does not cut the graceful part short; give `shutdown` its own
 * deadline (`app.close({ timeout })`). Returns a function that removes the handlers.
 *
 * @example
 * handleShutdownSignals(async () => {
 *   await app.close({ timeout: 10_000 });
 *   await database.close();
 * });
 */
export function handleShutdownSignals(
  shutdown: (signal: NodeJS.Signals) => Promise<void> | void,
  options: ShutdownSignalOptions = {},
): () => void {
  const signals = options.signals ?? ["SIGTERM", "SIGINT"];
  const log = options.log ?? consoleLog;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) {
      log.info(`${signal}: already shutting down`);
      return;
    }
    started = true;
    log.info(`${signal}: finishing requests in flight, then exiting`);
    Promise.resolve()
      .then(() => shutdown(signal))
      .then(
        () => exit(0),
        (error: unknown) => {
          log.error(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
          exit(1);
        },
      );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
