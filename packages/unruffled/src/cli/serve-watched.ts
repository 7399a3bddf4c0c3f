import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import type { CliIo } from "./command.ts";

/**
 * The lines `node --watch` itself prints on standard output ("Change detected in …", "Restarting …",
 * "Completed running …", "Failed running …", "Waiting for graceful termination…"), possibly coloured.
 */
// ESC spelled by its code: a regular expression literal may not hold a control character (lint).
const WATCH_LINE = new RegExp(
  `^(?:${String.fromCharCode(27)}\\[[\\d;]*m)*(?:Change detected in |Restarting |Completed running |Failed running |Waiting for graceful termination)`,
);

/**
 * Runs `unruffled serve` (without `--watch`) under `node --watch`, which restarts it whenever a file
 * the app imported changes, and waits for it. The command is started again the way this process was
 * (same script, same Node options), so it works from the sources and from the build alike. Signals
 * are passed on; resolves to its exit code. Node's own restart lines go to standard error: standard
 * output carries the app's JSON log lines only, as without `--watch`.
 *
 * @example await serveWatched(["src/app.ts", "--port", "8000"], io)
 */
export function serveWatched(serveArgs: readonly string[], io: CliIo): Promise<number> {
  const entry = process.argv[1]!;
  const child = spawn(
    process.execPath,
    [...process.execArgv, "--watch", "--watch-preserve-output", entry, "serve", ...serveArgs],
    { cwd: io.cwd, stdio: ["inherit", "pipe", "inherit"] },
  );
  const copied = sortLines(child.stdout, io);
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  return new Promise((resolve) => {
    child.once("exit", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      void copied.then(() => resolve(code ?? (signal === "SIGINT" || signal === "SIGTERM" ? 0 : 1)));
    });
  });
}

/** Copies the watcher's standard output line by line: its own lines to standard error, the app's on. */
async function sortLines(output: Readable, io: CliIo): Promise<void> {
  let pending = "";
  output.setEncoding("utf8");
  for await (const chunk of output as AsyncIterable<string>) {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop()!;
    for (const line of lines) await (WATCH_LINE.test(line) ? io.error : io.write)(`${line}\n`);
  }
  if (pending !== "") await io.write(pending);
}
