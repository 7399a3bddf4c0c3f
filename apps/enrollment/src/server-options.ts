import { type CorsOrigins, cors } from "unruffled";

/**
 * How the service runs: where it listens, how many processes serve, how long shutdown may take,
 * which browser pages may call it.
 */
export interface ServerOptions {
  port: number;
  host: string;
  /** Processes serving one port (node:cluster); 1 runs in this process alone. */
  workers: number;
  /** How long requests in flight get to finish after SIGTERM or SIGINT, in milliseconds. */
  shutdownTimeoutMs: number;
  /**
   * How long SIGTERM keeps serving after /readyz turned 503, so that the load balancer stops
   * sending first (skipped when nothing probed /readyz); undefined: the framework's default.
   */
  drainDelayMs: number | undefined;
  /** The origins whose pages may call the API (CORS); none by default. */
  corsOrigins: CorsOrigins;
  /**
   * The proxies whose X-Forwarded-For the service believes (`TRUSTED_PROXIES`: addresses and CIDR
   * ranges separated by commas, or a number of hops); none by default.
   */
  trustedProxies: string | number | undefined;
}

/**
 * Reads the options from the command line (`--workers N`, `--workers=N`) and the environment
 * (`PORT`, `HOST`, `WORKERS`, `SHUTDOWN_TIMEOUT_MS`, `DRAIN_DELAY_MS`, `CORS_ORIGINS`,
 * `TRUSTED_PROXIES`); the command line wins. Throws
 * a message that names the bad value.
 *
 * @example serverOptions(["--workers", "4"], { PORT: "8080" }) // { port: 8080, workers: 4, ... }
 */
export function serverOptions(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): ServerOptions {
  return {
    port: wholeNumber("PORT", env.PORT ?? "8000", 0, 65_535),
    host: env.HOST ?? "127.0.0.1",
    workers: wholeNumber("--workers", flagValue(argv, "--workers") ?? env.WORKERS ?? "1", 1, 1_024),
    shutdownTimeoutMs: wholeNumber("SHUTDOWN_TIMEOUT_MS", env.SHUTDOWN_TIMEOUT_MS ?? "10000", 0, 3_600_000),
    ...appOptions(env),
  };
}

/** What the app itself reads from the environment, however it is started. */
export type AppEnvironment = Pick<ServerOptions, "drainDelayMs" | "corsOrigins" | "trustedProxies">;

/**
 * The part of the options the app itself takes (`DRAIN_DELAY_MS`, `CORS_ORIGINS`,
 * `TRUSTED_PROXIES`): read by `npm start` (main.ts) and by `unruffled serve src/server.ts`
 * (`npm run start:bun`), which takes the port, host and shutdown from its own command line.
 *
 * @example appOptions({ TRUSTED_PROXIES: "1" }) // { drainDelayMs: undefined, corsOrigins: [], trustedProxies: 1 }
 */
export function appOptions(env: Record<string, string | undefined>): AppEnvironment {
  return {
    drainDelayMs:
      env.DRAIN_DELAY_MS === undefined
        ? undefined
        : wholeNumber("DRAIN_DELAY_MS", env.DRAIN_DELAY_MS, 0, 3_600_000),
    corsOrigins: corsOrigins(env),
    trustedProxies: trustedProxies(env.TRUSTED_PROXIES),
  };
}

/**
 * The origins in `CORS_ORIGINS`, separated by commas (`https://app.example.com,https://admin.example.com`),
 * or `*` for any page; none when it is unset or empty. Throws a message naming a value that is no origin.
 *
 * @example corsOrigins({ CORS_ORIGINS: "https://app.example.com" }) // ["https://app.example.com"]
 */
export function corsOrigins(env: Record<string, string | undefined>): CorsOrigins {
  const text = (env.CORS_ORIGINS ?? "").trim();
  if (text === "*") return "*";
  const origins = text.split(",").flatMap((origin) => (origin.trim() === "" ? [] : [origin.trim()]));
  try {
    // The framework's own check of each origin, with its message.
    cors({ origins });
  } catch (error) {
    throw new Error(`CORS_ORIGINS: ${(error as Error).message}`);
  }
  return origins;
}

function trustedProxies(text: string | undefined): string | number | undefined {
  const value = text?.trim();
  if (value === undefined || value === "") return undefined;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/**
 * The value of `flag` (`--workers N` or `--workers=N`), the only argument the service takes: any
 * other is refused, naming it, rather than ignored (`npm start -- --port 9000` would otherwise
 * serve on port 8000 without a word).
 */
function flagValue(argv: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === flag) {
      value = argv[index + 1] ?? "";
      index++;
    } else if (arg.startsWith(`${flag}=`)) {
      value = arg.slice(flag.length + 1);
    } else {
      throw new Error(
        `Unknown argument "${arg}": the service takes ${flag} N; the port, host and other settings come from the environment (PORT=9000 npm start).`,
      );
    }
  }
  return value;
}

function wholeNumber(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  }
  return value;
}
