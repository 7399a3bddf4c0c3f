import cluster from "node:cluster";
import { lookup } from "node:dns/promises";
import { type AddressInfo, createServer } from "node:net";
import type { LevelWithSilent } from "pino";
import { DEFAULT_DRAIN_DELAY_MS } from "../health/health-options.ts";
import { DEFAULT_CLOSE_TIMEOUT_MS } from "../server/node/node-adapter.ts";
import { currentRuntime, runtimeLabel } from "../server/runtime.ts";
import { serve } from "../server/runtime-server.ts";
import { handleShutdownSignals } from "../server/shutdown-signals.ts";
import { runWorkers } from "../server/workers.ts";
import { readAppArguments } from "./app-arguments.ts";
import { type CliCommand, CliFailure, type CliIo, CliUsageError } from "./command.ts";
import { loadApp } from "./load-app.ts";
import { serveWatched } from "./serve-watched.ts";

const USAGE =
  "unruffled serve <app module> [--export <name>] [--port <port>] [--host <host>] [--workers <n>] [--watch] [--log-level <level>]";

const LEVELS: readonly string[] = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

/** What `serve` was asked for, checked. */
export interface ServeOptions {
  modulePath: string;
  exportName: string | undefined;
  port: number;
  host: string;
  workers: number;
  watch: boolean;
  logLevel: LevelWithSilent | undefined;
}

/**
 * `unruffled serve src/app.ts --port 8000`: imports the app module and serves its app on the server
 * of the runtime it runs on (Node's `http`, `Bun.serve`, `Deno.serve`) until SIGTERM or SIGINT, then
 * drains (readiness answers 503 for the app's `health.drainDelayMs` while it keeps serving, once
 * something probed readiness) and closes gracefully. `--workers 4` runs four processes on
 * one port (node:cluster); `--watch` restarts on every change of a file the app imports;
 * `--log-level info` turns the access log on. Progress goes to standard error, so that standard
 * output carries the JSON log lines only.
 *
 * @example
 * npx unruffled serve src/app.ts --watch --log-level info
 */
export const serveCommand: CliCommand = {
  name: "serve",
  usage: USAGE,
  summary: "Serve an app on the runtime's own server (--workers, --watch for development)",
  async run(args, io) {
    const options = readServeOptions(args, io.cwd);
    refuseWhatTheRuntimeCannot(options);
    await checkHostResolves(options);
    await sharePortZero(options);
    if (options.watch) {
      return serveWatched(
        args.filter((arg) => arg !== "--watch"),
        io,
      );
    }
    // The primary loads the app once before forking, so a definition error is told once, not by
    // every worker in a restart loop; it waits out the workers' drain and close before killing them.
    let drainDelay = DEFAULT_DRAIN_DELAY_MS;
    if (options.workers > 1 && cluster.isPrimary) {
      const app = await loadApp(options.modulePath, options.exportName);
      drainDelay = app.health?.options.drainDelayMs ?? 0;
    }
    await runWorkers({
      workers: options.workers,
      shutdownTimeout: drainDelay + DEFAULT_CLOSE_TIMEOUT_MS + 5_000,
      start: () => serveInThisProcess(options, io),
      log: toStderr(io),
    });
    // Serves until a signal: handleShutdownSignals (or the cluster primary) ends the process.
    return new Promise<number>(() => {});
  },
};

/** What a listen fails with for a port or a host the user chose: one line, not a stack. */
const LISTEN_FAILURES = new Set(["EADDRINUSE", "EACCES", "EADDRNOTAVAIL", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * A --host that names no address is told as a taken port is. Looked up first because Bun's and
 * Deno's servers fail on it their own ways (EINVAL; an Error without a code).
 */
/** The one line for a port or host the server cannot listen on, with the error's code. */
function cannotListen(options: ServeOptions, code: string): CliFailure {
  return new CliFailure(
    `Cannot listen on ${options.host}:${options.port} (${code}); choose another --port or --host.`,
  );
}

async function checkHostResolves(options: ServeOptions): Promise<void> {
  try {
    await lookup(options.host);
  } catch (error) {
    throw cannotListen(options, (error as { code?: string }).code ?? "ENOTFOUND");
  }
}

async function serveInThisProcess(options: ServeOptions, io: CliIo): Promise<void> {
  const app = await loadApp(options.modulePath, options.exportName);
  if (options.logLevel !== undefined) app.logger.level = options.logLevel;
  let server: Awaited<ReturnType<typeof serve>>;
  try {
    server = await serve(app, { port: options.port, host: options.host });
  } catch (error) {
    // A hook of onStartup failed: its one line (checked by name: the app may come from another copy
    // of the package), and with DEBUG the stack of what it threw.
    if ((error as Error).name === "StartupError") {
      const cause = (error as Error).cause;
      const stack = app.settings.DEBUG === true && cause instanceof Error ? `\n${cause.stack}` : "";
      throw new CliFailure(`${(error as Error).message}${stack}`);
    }
    const code = (error as { code?: string }).code;
    if (code !== undefined && LISTEN_FAILURES.has(code)) {
      throw cannotListen(options, code);
    }
    throw error;
  }
  // Readiness turns 503 and the app serves on for its drain delay (once something probed readiness).
  handleShutdownSignals(() => server.close({ drain: true }), { log: toStderr(io) });
  const worker = cluster.isWorker ? ` worker ${process.env.UNRUFFLED_WORKER ?? cluster.worker?.id}` : "";
  const runtime =
    server.runtime === "node"
      ? ""
      : `, ${runtimeLabel(server.runtime)}${server.server === "node:http" ? ", node:http for its WebSocket routes" : ""}`;
  await io.error(
    `Serving ${options.modulePath} on http://${server.hostname}:${server.port} (pid ${process.pid}${worker}${runtime})\n`,
  );
}

/**
 * Neither Bun nor Deno restarts through `node --watch`, and Deno runs no `--workers` (its cluster's
 * workers did not start with the flags of the process that forked them): refused before anything
 * starts, with what to use. Bun runs `--workers` (its `node:cluster`, `Bun.serve`'s `reusePort`).
 */
function refuseWhatTheRuntimeCannot(options: ServeOptions): void {
  const runtime = currentRuntime();
  if (runtime === "node") return;
  const label = runtimeLabel(runtime);
  if (options.workers > 1 && runtime === "deno") {
    throw new CliUsageError(
      `--workers is not supported on ${label}: run one process per core behind a load balancer, or serve on Node or Bun.`,
    );
  }

  if (options.watch) {
    const watch = runtime === "bun" ? "bun --watch" : "deno run --watch";
    throw new CliUsageError(
      `--watch restarts through node --watch, which ${label} does not have; use ${watch} instead.`,
    );
  }
}

/**
 * On Bun each worker binds the port itself (Bun.serve's `reusePort`), so `--port 0` would give each
 * a port of its own, where Node's cluster binds one for all: the primary picks a free port, and its
 * workers (forked with its environment) take it.
 */
async function sharePortZero(options: ServeOptions): Promise<void> {
  if (options.workers < 2 || options.port !== 0 || currentRuntime() !== "bun") return;
  if (cluster.isPrimary) process.env[SHARED_PORT] = String(await freePort(options.host));
  else options.port = Number(process.env[SHARED_PORT]);
}

// The port the primary chose for `--port 0`, for its Bun workers.
const SHARED_PORT = "UNRUFFLED_SHARED_PORT";

/** A port free on `host` now, which the system chose. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

// Progress lines go to standard error, one per line.
function toStderr(io: CliIo) {
  const line = (text: string) => void io.error(`${text}\n`);
  return { info: line, error: line };
}

/** Parses and checks the command line of `serve`. */
export function readServeOptions(args: readonly string[], cwd: string): ServeOptions {
  const { modulePath, exportName, values } = readAppArguments(args, cwd, {
    port: { type: "string" },
    host: { type: "string" },
    workers: { type: "string" },
    watch: { type: "boolean", default: false },
    "log-level": { type: "string" },
  });
  // PORT as most hosts set it; an empty one counts as none.
  const fromEnvironment = process.env.PORT === "" ? undefined : process.env.PORT;
  const port =
    values.port !== undefined
      ? wholeNumber("--port", values.port, 0, 65_535)
      : wholeNumber("PORT", fromEnvironment ?? "8000", 0, 65_535);
  const workers = wholeNumber("--workers", values.workers ?? "1", 1, 1_024);
  if (values.watch && workers > 1) {
    throw new CliUsageError("--watch restarts one process for development; leave out --workers with it.");
  }
  const logLevel = values["log-level"];
  if (logLevel !== undefined && !LEVELS.includes(logLevel)) {
    throw new CliUsageError(`--log-level must be one of ${LEVELS.join(", ")}, got "${logLevel}".`);
  }
  return {
    modulePath,
    exportName,
    port,
    host: values.host ?? "127.0.0.1",
    workers,
    watch: values.watch,
    logLevel: logLevel as LevelWithSilent | undefined,
  };
}

function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new CliUsageError(`${flag} must be a whole number from ${min} to ${max}, got "${text}".`);
  }
  return value;
}
