import type { ProxySettings } from "../client-address/trusted-proxies.ts";
import { DEFAULT_UPLOAD_LIMITS } from "../file/upload-limits.ts";
import { DEFAULT_BODY_LIMITS } from "../http/body-limits.ts";
import type { LoggingSettings } from "../logging/logger.ts";
import type { OpenApiSettings } from "../openapi/settings.ts";
import type { ErrorSettings } from "../problem/problem-details.ts";
import type { RateLimitSettings } from "../rate-limit/settings.ts";

/**
 * `LIMITS` settings. Every limit is answered with a clear status, never a crash or a hang: 413 for
 * a body, file or count past its limit (the rest of the body is never read), 400 for JSON nested too
 * deep, 431 for a request head too large, 408 (then the connection closes) for a client too slow.
 * Sizes are in bytes, times in milliseconds; every value is a positive whole number.
 */
export interface LimitSettings {
  /** Largest JSON or text body (default 1 MiB); past it, 413. */
  body_size?: number;
  /** Deepest nesting of arrays and objects in a JSON body (default 64); past it, 400. */
  json_depth?: number;
  /** Largest urlencoded form body (default 1 MiB); past it, 413. */
  form_size?: number;
  /** Largest uploaded file (default 10 MiB); past it, 413. A File parameter's `maxSize` may lower it. */
  file_size?: number;
  /** Largest whole multipart body (default 50 MiB); past it, 413. */
  upload_size?: number;
  /** Most files in one multipart body (default 10); past it, 413. */
  files?: number;
  /** Most non-file fields in one multipart or urlencoded body (default 100); past it, 413. */
  fields?: number;
  /** Largest multipart field value (default 1 MiB); past it, 413. */
  field_size?: number;
  /** Largest request head: request line and headers (default 16 KiB); past it, Node answers 431. */
  header_size?: number;
  /**
   * Time a client has to send its whole request head (default 10 s, or `request_timeout` when that
   * is smaller); then Node answers 408 and closes the connection. Must not exceed `request_timeout`.
   */
  headers_timeout?: number;
  /** Time a client has to send its whole request, head and body (default 30 s); then 408 and close. */
  request_timeout?: number;
  /**
   * Time an idle keep-alive connection stays open after an answer (default 5 s; Node adds about a
   * second so that a client reusing the connection at the last moment is not cut off).
   */
  keep_alive_timeout?: number;
}

/**
 * `RESPONSES` settings: how an answer is held to the model its `ResponseSpec` declares. Either way,
 * a JSON body (or an event's data) is written through the model's compiled serializer, so fields the
 * model does not declare are never sent, and a value of the wrong kind is a 500.
 */
export interface ResponseSettings {
  /**
   * `"strict"`: Zod validates every such body before it is sent (lengths, formats, refinements too);
   * a body the model refuses is a 500 whose log names the endpoint, the status and the field.
   * `"off"`: only the serializer's checks of each value's kind. Default: strict under tests
   * (`NODE_ENV=test`, or Vitest) and with `DEBUG`, else off.
   */
  validate?: "strict" | "off";
}

/** The settings mapping of an app. Keys are upper case, as in the seed. */
export interface Settings {
  OPENAPI?: OpenApiSettings;
  /** True adds the error and its stack to 500 answers. Never in production. */
  DEBUG?: boolean;
  LIMITS?: LimitSettings;
  /** Levels and destination of the access and error logs; see `LoggingSettings` for the defaults. */
  LOGGING?: LoggingSettings;
  /** Whether answers are validated against their models before they are sent; see `ResponseSettings`. */
  RESPONSES?: ResponseSettings;
  /** The proxies whose forwarding headers `request.client` believes; none by default. See `ProxySettings`. */
  PROXIES?: ProxySettings;
  /** The shape of the framework's own error answers: `{ format: "problem" }` for RFC 9457. */
  ERRORS?: ErrorSettings;
  /** What limited routes do when their store fails, and whether they send the legacy headers. */
  RATE_LIMITS?: RateLimitSettings;
  /**
   * The path a proxy serves the app under and strips before forwarding (`"/api/v1"`; FastAPI's
   * `root_path`): put before the app's paths by `request.urlFor`, the framework's redirects and the
   * served document's `servers`. A trusted proxy's `X-Forwarded-Prefix` overrides it per request.
   */
  ROOT_PATH?: string;
  [key: string]: unknown;
}

/** Every limit's default: the body reader's and the upload parser's own, and the server's. */
export const DEFAULT_LIMITS: Required<LimitSettings> = {
  body_size: DEFAULT_BODY_LIMITS.body,
  json_depth: DEFAULT_BODY_LIMITS.jsonDepth,
  form_size: DEFAULT_BODY_LIMITS.form,
  file_size: DEFAULT_UPLOAD_LIMITS.fileSize,
  upload_size: DEFAULT_UPLOAD_LIMITS.totalSize,
  files: DEFAULT_UPLOAD_LIMITS.files,
  fields: DEFAULT_UPLOAD_LIMITS.fields,
  field_size: DEFAULT_UPLOAD_LIMITS.fieldSize,
  header_size: 16 * 1024,
  headers_timeout: 10_000,
  request_timeout: 30_000,
  keep_alive_timeout: 5_000,
};

// The groups whose keys are checked one by one: each is a mapping of keys, or absent.
const CHECKED_GROUPS = ["LIMITS", "LOGGING", "RESPONSES", "ERRORS", "RATE_LIMITS", "OPENAPI"] as const;
// Every key the framework reads: one written in another case (`limits`) would be silently ignored.
const FRAMEWORK_KEYS = new Set<string>([...CHECKED_GROUPS, "DEBUG", "PROXIES", "ROOT_PATH"]);

/**
 * Refuses, when the app is built, a checked group that is not a mapping of keys (`LIMITS: 65536`),
 * which would otherwise pass as one without keys, silently keeping every default; and a framework
 * key written in another case (`limits`), which would be left to the app as one of its own.
 *
 * @example checkSettingGroups({ LOGGING: "info" }) // TypeError: The LOGGING setting must be an object …
 */
export function checkSettingGroups(settings: Settings): void {
  for (const key of Object.keys(settings)) {
    const upper = key.toUpperCase();
    if (upper !== key && FRAMEWORK_KEYS.has(upper)) {
      throw new TypeError(
        `The setting "${key}" is not read: the framework's settings are upper case (${upper}).`,
      );
    }
  }
  for (const group of CHECKED_GROUPS) {
    const value = settings[group];
    if (value === undefined) continue;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new TypeError(
        `The ${group} setting must be an object of keys and values, got ${JSON.stringify(value)}`,
      );
    }
  }
}

/** The limits in force: the defaults, with the app's own values over them. */
export function resolveLimits(limits: LimitSettings | undefined): Required<LimitSettings> {
  const result = { ...DEFAULT_LIMITS };
  const given = limits ?? {};
  for (const key of Object.keys(given) as (keyof LimitSettings)[]) {
    const value = given[key];
    if (value === undefined) continue;
    if (!Object.hasOwn(DEFAULT_LIMITS, key)) throw new TypeError(`Unknown LIMITS setting "${key}"`);
    if (!Number.isInteger(value) || value <= 0) {
      throw new TypeError(
        `The LIMITS setting "${key}" must be a positive whole number, got ${JSON.stringify(value)}`,
      );
    }
    result[key] = value;
  }
  if (given.headers_timeout === undefined) {
    // Node refuses a head deadline later than the whole request's one.
    result.headers_timeout = Math.min(result.headers_timeout, result.request_timeout);
  } else if (result.headers_timeout > result.request_timeout) {
    throw new TypeError(
      `The LIMITS setting "headers_timeout" (${result.headers_timeout} ms) must not exceed "request_timeout" (${result.request_timeout} ms)`,
    );
  }
  return result;
}

/**
 * True when answers are validated with Zod before they are sent (`RESPONSES.validate`): by default
 * under tests (`NODE_ENV=test`, or Vitest's `VITEST`) and with `DEBUG`.
 *
 * @example strictResponses({ DEBUG: true }, {}) // true
 */
export function strictResponses(settings: Settings, env: NodeJS.ProcessEnv = process.env): boolean {
  const given = settings.RESPONSES ?? {};
  for (const key of Object.keys(given)) {
    if (key !== "validate") throw new TypeError(`Unknown RESPONSES setting "${key}"; use validate.`);
  }
  const validate = given.validate;
  if (validate === undefined)
    return settings.DEBUG === true || env.NODE_ENV === "test" || env.VITEST !== undefined;
  if (validate !== "strict" && validate !== "off") {
    throw new TypeError(
      `The RESPONSES setting "validate" must be "strict" or "off", got ${JSON.stringify(validate)}`,
    );
  }
  return validate === "strict";
}
