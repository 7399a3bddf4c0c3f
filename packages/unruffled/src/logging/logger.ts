import type pinoModule from "pino";
import type { DestinationStream, LevelWithSilent, Logger } from "pino";
import { createRequire } from "../node-builtins.ts";
import { BatchedDestination } from "./batched-destination.ts";

/** Where the app reports errors it answered with 500, and failures after an answer. A pino logger is one. */
export interface ErrorLogger {
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * `LOGGING` settings. Records are JSON lines written by pino: one `info` record per answered request
 * (the access log) and an `error` record for every 500. Defaults: level `"warn"` (quiet but never
 * silent about errors; set `"info"` for the access log), standard output written asynchronously,
 * access log on. A file path as `destination` is written the same way as standard output.
 */
export interface LoggingSettings {
  /** The least severe level written: `"trace"`…`"fatal"`, or `"silent"` (default `"warn"`). */
  level?: LevelWithSilent;
  /**
   * Where the lines go: a file path (appended to, folders made), a file descriptor (2 for standard
   * error), or any pino destination, which gets the lines one by one (default: standard output).
   * Descriptors and paths are written asynchronously, once per event-loop turn, and written out
   * when the process exits.
   */
  destination?: string | number | DestinationStream;
  /** False leaves out the per-request `info` record; request ids are still set (default true). */
  access_log?: boolean;
}

export const DEFAULT_LOG_LEVEL: LevelWithSilent = "warn";

const LEVELS: readonly string[] = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];
const KEYS: readonly string[] = ["level", "destination", "access_log"];

// Secrets a handler might log with a request's headers never reach the log. Exact paths only:
// a wildcard path would make every record several times slower to write.
const REDACTED_PATHS = [
  "headers.authorization",
  "headers.cookie",
  'headers["set-cookie"]',
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
];

// pino's number for each level, as `logger.levelVal` gives it once a logger exists.
const LEVEL_VALUES: Readonly<Record<LevelWithSilent, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

// pino is loaded with the first logger, not with the framework: an app at the default level that
// has nothing to report does without its 3 MB. It is CommonJS, so `require` loads it synchronously.
const requireHere = createRequire(import.meta.url);
let loadedPino: typeof pinoModule | undefined;
function pino(): typeof pinoModule {
  loadedPino ??= requireHere("pino") as typeof pinoModule;
  return loadedPino;
}

// One writer per file (1 is standard output) for every app of the process.
const writers = new Map<number | string, DestinationStream>();

/**
 * A pino logger from `LOGGING` settings, shared by the access log and the app's error reports. Pass
 * it as `createApp({ logger })` to log your own records to the same place.
 *
 * @example
 * const logger = createLogger({ level: "info", destination: "/var/log/shop/app.log" });
 * const app = createApp({ routes, logger });
 * logger.info({ port: 8000 }, "listening");
 */
export function createLogger(settings: LoggingSettings = {}): Logger {
  checkLoggingSettings(settings);
  const options = { level: settings.level ?? DEFAULT_LOG_LEVEL, redact: REDACTED_PATHS };
  const destination = settings.destination ?? 1;
  return pino()(options, typeof destination === "object" ? destination : sharedWriter(destination));
}

/** Refuses unknown keys and values of the wrong kind when the app is built, as `LIMITS` does. */
export function checkLoggingSettings(settings: LoggingSettings): void {
  for (const key of Object.keys(settings)) {
    if (!KEYS.includes(key)) throw new TypeError(`Unknown LOGGING setting "${key}"; use ${KEYS.join(", ")}.`);
  }
  const { level, destination, access_log } = settings;
  if (level !== undefined && !LEVELS.includes(level)) {
    throw new TypeError(
      `The LOGGING setting "level" must be one of ${LEVELS.join(", ")}, got ${JSON.stringify(level)}`,
    );
  }
  // "false" read from an environment variable would otherwise keep the access log on.
  if (access_log !== undefined && typeof access_log !== "boolean") {
    throw new TypeError(
      `The LOGGING setting "access_log" must be true or false, got ${JSON.stringify(access_log)}`,
    );
  }
  if (destination !== undefined && !isDestination(destination)) {
    throw new TypeError(
      `The LOGGING setting "destination" must be a file path, a file descriptor or a pino destination (an object with write()), got ${JSON.stringify(destination)}`,
    );
  }
}

function isDestination(value: unknown): boolean {
  if (typeof value === "string") return value !== "";
  // A file descriptor: 1 is the default, 2 standard error.
  if (typeof value === "number") return Number.isInteger(value) && value >= 0;
  return (
    typeof value === "object" && value !== null && typeof (value as DestinationStream).write === "function"
  );
}

// An asynchronous writer, batched per event-loop turn, written out when the process exits.
function sharedWriter(file: number | string): DestinationStream {
  let writer = writers.get(file);
  if (writer === undefined) {
    const batched = new BatchedDestination(pino().destination({ dest: file, sync: false, mkdir: true }));
    process.once("exit", () => {
      try {
        batched.flushSync();
      } catch {
        // A log that cannot be written (a closed pipe) must not change how the process exits.
      }
    });
    writer = batched;
    writers.set(file, writer);
  }
  return writer;
}

/** True for a pino logger (rather than an object with an `error` method only). */
export function isPinoLogger(value: unknown): value is Logger {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Logger).isLevelEnabled === "function" &&
    typeof (value as Logger).info === "function"
  );
}

/**
 * An app's logger, made from its `LOGGING` settings when first used. Until then its level is read
 * from the settings, so the access log can tell that it has nothing to write without making it.
 */
export class LazyLogger {
  private made: Logger | undefined;
  private readonly settings: LoggingSettings;
  private readonly configuredLevel: number;

  /** `given`: a ready logger to use instead (then the settings' level does not apply). */
  constructor(settings: LoggingSettings, given?: Logger) {
    checkLoggingSettings(settings);
    this.settings = settings;
    this.made = given;
    this.configuredLevel = LEVEL_VALUES[settings.level ?? DEFAULT_LOG_LEVEL];
  }

  get logger(): Logger {
    this.made ??= createLogger(this.settings);
    return this.made;
  }

  /** pino's number for the current level (info is 30), without making the logger. */
  get levelVal(): number {
    return this.made === undefined ? this.configuredLevel : this.made.levelVal;
  }
}
