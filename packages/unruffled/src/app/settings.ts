/** `OPENAPI` settings: what the document says about the API, and whether the pages are served. */
export interface OpenApiSettings {
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  /** True serves `/openapi/docs`, `/openapi/redoc` and `/openapi/openapi.json`. */
  allow_public?: boolean;
}

/** `LIMITS` settings. Every limit is answered with a clear status (413, 431, 408), never a crash. */
export interface LimitSettings {
  /** Largest JSON or text body in bytes (default 1 MiB). */
  body_size?: number;
  /** Largest urlencoded form body in bytes (default 1 MiB). */
  form_size?: number;
  /** Largest uploaded file in bytes (default 10 MiB). */
  file_size?: number;
  /** Largest whole multipart body in bytes (default 50 MiB). */
  upload_size?: number;
  /** Most files in one multipart body (default 10). */
  files?: number;
  /** Most non-file fields in one multipart body (default 100). */
  fields?: number;
  /** Largest multipart field value in bytes (default 1 MiB). */
  field_size?: number;
  /** Largest request head in bytes; past it Node answers 431 (default 16 KiB). */
  header_size?: number;
  /** Milliseconds a client has to send its headers (default 10 s). */
  headers_timeout?: number;
  /** Milliseconds a client has to send its whole request (default 30 s); then 408. */
  request_timeout?: number;
  /** Milliseconds an idle keep-alive connection stays open (default 5 s). */
  keep_alive_timeout?: number;
}

/** The settings mapping of an app. Keys are upper case, as in the seed. */
export interface Settings {
  OPENAPI?: OpenApiSettings;
  /** True adds the error and its stack to 500 answers. Never in production. */
  DEBUG?: boolean;
  LIMITS?: LimitSettings;
  [key: string]: unknown;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: Required<LimitSettings> = {
  body_size: MiB,
  form_size: MiB,
  file_size: 10 * MiB,
  upload_size: 50 * MiB,
  files: 10,
  fields: 100,
  field_size: MiB,
  header_size: 16 * 1024,
  headers_timeout: 10_000,
  request_timeout: 30_000,
  keep_alive_timeout: 5_000,
};

/** The limits in force: the defaults, with the app's own values over them. */
export function resolveLimits(limits: LimitSettings | undefined): Required<LimitSettings> {
  const result = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(limits ?? {}) as (keyof LimitSettings)[]) {
    const value = limits![key];
    if (value === undefined) continue;
    if (!(key in DEFAULT_LIMITS)) throw new TypeError(`Unknown LIMITS setting "${key}"`);
    if (!Number.isInteger(value) || value <= 0) {
      throw new TypeError(
        `The LIMITS setting "${key}" must be a positive whole number, got ${JSON.stringify(value)}`,
      );
    }
    result[key] = value;
  }
  return result;
}
