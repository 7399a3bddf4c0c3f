import { spawn } from "node:child_process";
import type { CliIo } from "./command.ts";

/**
 * Runs `unruffled serve` (without `--watch`) under `node --watch`, which restarts it whenever a file
 * the app imported changes, and waits for it. The command is started again the way this process was
 * (same script, same Node options), so it works from the sources and from the build alike. Signals
 * are passed on; resolves to its exit code.
 *
 * @example await serveWatched(["src/app.ts", "--port", "8000"], io)
 */
export function serveWatched(serveArgs: readonly string[], io: CliIo): Promise<number> {
  const entry = process.argv[1]!;
  const child = spawn(
    process.execPath,
    [...process.execArgv, "--watch", "--watch-preserve-output", entry, "serve", ...serveArgs],
    { cwd: io.cwd, stdio: "inherit" },
  );
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  return new Promise((resolve) => {
    child.once("exit", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      resolve(code ?? (signal === "SIGINT" || signal === "SIGTERM" ? 0 : 1));
    });
  });
}
