import { ValueError } from "../errors.ts";

/**
 * One readiness check: resolves when the thing it checks answers (a database ping), throws or
 * rejects when it does not. It gets a signal that aborts at its timeout, for work that can stop.
 */
export type HealthCheck = (signal: AbortSignal) => unknown;

/** A check with its own timeout, in milliseconds. */
export interface TimedHealthCheck {
  check: HealthCheck;
  timeoutMs: number;
}

/** The paths of the three routes; `false` leaves a route out. */
export interface HealthPaths {
  /** Liveness: 200 while the process can answer at all; it checks nothing external (default `/livez`). */
  live?: string | false;
  /** Readiness: runs the checks; 503 while starting, draining or when a check fails (default `/readyz`). */
  ready?: string | false;
  /** Start-up: 200 once the `onStartup` hooks have finished, 503 before (default `/startupz`). */
  startup?: string | false;
}

/**
 * `createApp({ health })`: the liveness, readiness and start-up routes. They are on by default,
 * with no checks; `health: false` leaves them out. They are not in the OpenAPI document (unless
 * `openapi: true`), run no app middleware, dependency or security scheme, and their access log
 * records are written at `debug`, not `info`.
 *
 * @example
 * createApp({ routes, health: { checks: { database: () => db.ping() }, timeoutMs: 1_000 } });
 */
export interface HealthOptions {
  /** Readiness checks by name, run concurrently on each readiness request. */
  checks?: Readonly<Record<string, HealthCheck | TimedHealthCheck>>;
  /** Each check's timeout unless it has its own (default `DEFAULT_CHECK_TIMEOUT_MS`, 1 s). */
  timeoutMs?: number;
  paths?: HealthPaths;
  /** True puts the three routes in the OpenAPI document (default false). */
  openapi?: boolean;
  /**
   * How long `app.close({ drain: true })` (SIGTERM under `unruffled serve`) keeps serving after
   * readiness turned 503, so that load balancers stop sending first (default
   * `DEFAULT_DRAIN_DELAY_MS`, 5 s). Skipped when nothing asked for readiness since the app started.
   */
  drainDelayMs?: number;
}

/** A readiness check's timeout unless told otherwise: below Kubernetes' default probe timeout (1 s). */
export const DEFAULT_CHECK_TIMEOUT_MS = 1_000;

/**
 * How long a drain keeps serving after readiness turned 503. A Kubernetes readiness probe with
 * `periodSeconds: 1` and `failureThreshold: 2` notices within 2 s; HAProxy with `inter 500` and
 * `fall 3` within 1.5 s: 5 s leaves room for the endpoint lists to follow.
 */
export const DEFAULT_DRAIN_DELAY_MS = 5_000;

/** The Kubernetes conventions. */
export const DEFAULT_HEALTH_PATHS: Readonly<Required<HealthPaths>> = Object.freeze({
  live: "/livez",
  ready: "/readyz",
  startup: "/startupz",
});

/** The health options in force, checked once when the app is built. */
export interface ResolvedHealth {
  checks: readonly { name: string; check: HealthCheck; timeoutMs: number }[];
  paths: Readonly<Record<keyof HealthPaths, string | false>>;
  openapi: boolean;
  drainDelayMs: number;
}

const KEYS = ["checks", "timeoutMs", "paths", "openapi", "drainDelayMs"];
const PATH_KEYS = ["live", "ready", "startup"];

/**
 * Checks `createApp({ health })` and fills in the defaults; `undefined` for `health: false`.
 *
 * @example resolveHealth({ checks: { db: ping } }).paths.ready // "/readyz"
 */
export function resolveHealth(options: HealthOptions | boolean | undefined): ResolvedHealth | undefined {
  if (options === false) return undefined;
  const given: HealthOptions = options === true || options === undefined ? {} : options;
  for (const key of Object.keys(given)) {
    if (!KEYS.includes(key)) throw new ValueError(`Unknown health option "${key}"; use ${KEYS.join(", ")}.`);
  }
  const timeoutMs = duration("timeoutMs", given.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS, 1);
  const checks = Object.entries(given.checks ?? {}).map(([name, entry]) => {
    if (typeof entry === "function") return { name, check: entry, timeoutMs };
    if (typeof entry?.check !== "function") {
      throw new ValueError(`The health check "${name}" must be a function, or { check, timeoutMs }.`);
    }
    return { name, check: entry.check, timeoutMs: duration(`checks.${name}.timeoutMs`, entry.timeoutMs, 1) };
  });
  const paths = { ...DEFAULT_HEALTH_PATHS };
  for (const [key, value] of Object.entries(given.paths ?? {})) {
    if (!PATH_KEYS.includes(key))
      throw new ValueError(`Unknown health path "${key}"; use live, ready, startup.`);
    if (value !== false && (typeof value !== "string" || !value.startsWith("/") || value.includes("{"))) {
      throw new ValueError(
        `The health path "${key}" must be a path such as "/readyz" (no placeholders), or false; got ${JSON.stringify(value)}.`,
      );
    }
    paths[key as keyof HealthPaths] = value as string | false;
  }
  return {
    checks,
    paths,
    openapi: given.openapi === true,
    drainDelayMs: duration("drainDelayMs", given.drainDelayMs ?? DEFAULT_DRAIN_DELAY_MS, 0),
  };
}

function duration(name: string, value: unknown, min: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new ValueError(
      `The health option "${name}" must be a whole number of milliseconds of at least ${min}; got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}
