/** `RATE_LIMITS` settings: what limited routes do when their store fails, and which headers they send. */
export interface RateLimitSettings {
  /**
   * `"open"` (the default): while the store cannot be reached, requests are admitted without limits
   * and a warning is logged once per `warn_interval`. `"closed"`: limited routes answer 503.
   */
  on_store_failure?: "open" | "closed";
  /** Also send the legacy `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (default false). */
  legacy_headers?: boolean;
  /** The least time between two warnings about the store, in ms (default 60 s). */
  warn_interval?: number;
  /**
   * How long a request waits for a store across processes (Redis, PostgreSQL, the workers' primary)
   * before it counts as failed, in ms (default 1 s): a store that takes the connection and then says
   * nothing falls under `on_store_failure` instead of holding its requests.
   */
  store_timeout?: number;
}

/**
 * The settings in force, checked when the app is built.
 *
 * @example rateLimitSettings({ on_store_failure: "closed" }) // { on_store_failure: "closed", legacy_headers: false, warn_interval: 60000, store_timeout: 1000 }
 */
export function rateLimitSettings(given: RateLimitSettings | undefined): Required<RateLimitSettings> {
  const settings = {
    on_store_failure: "open",
    legacy_headers: false,
    warn_interval: 60_000,
    store_timeout: 1_000,
    ...given,
  };
  for (const key of Object.keys(settings)) {
    if (!["on_store_failure", "legacy_headers", "warn_interval", "store_timeout"].includes(key)) {
      throw new TypeError(`Unknown RATE_LIMITS setting "${key}"`);
    }
  }
  if (settings.on_store_failure !== "open" && settings.on_store_failure !== "closed") {
    throw new TypeError(
      `The RATE_LIMITS setting "on_store_failure" must be "open" or "closed", got ${JSON.stringify(settings.on_store_failure)}`,
    );
  }
  if (typeof settings.legacy_headers !== "boolean") {
    throw new TypeError(`The RATE_LIMITS setting "legacy_headers" must be true or false`);
  }
  if (!Number.isInteger(settings.warn_interval) || settings.warn_interval < 0) {
    throw new TypeError(`The RATE_LIMITS setting "warn_interval" must be a whole number of ms`);
  }
  if (!Number.isInteger(settings.store_timeout) || settings.store_timeout < 1) {
    throw new TypeError(`The RATE_LIMITS setting "store_timeout" must be a whole number of ms, at least 1`);
  }
  return settings as Required<RateLimitSettings>;
}
