import { ValueError } from "../errors.ts";
import type { HttpRequest } from "../http/request.ts";

/** Who may call from a browser page: a list of origins (or patterns), a function, or `"*"` for anyone. */
export type CorsOrigins =
  | "*"
  | readonly (string | RegExp)[]
  | ((origin: string, request: HttpRequest) => boolean | Promise<boolean>);

/** Whether an `Origin` may call; only a well-formed origin (or `null`) can pass, so it is safe to echo. */
export type OriginCheck = (origin: string, request: HttpRequest) => boolean | Promise<boolean>;

// scheme://host[:port], as a browser serialises an origin: the host a name (already ASCII) or an
// IPv6 address in brackets. Anything else (a path, a space, a line break) is no origin.
const SERIALIZED_ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/(?:\[[0-9a-f:.]+\]|[a-z0-9._~-]+)(?::\d{1,5})?$/i;
const MAX_ORIGIN_LENGTH = 512;

/**
 * Whether `text` is an origin as browsers send it (`https://app.example.com:8443`).
 *
 * @example isSerializedOrigin("https://app.example.com/") // false: an origin has no path
 */
export function isSerializedOrigin(text: string): boolean {
  return text.length <= MAX_ORIGIN_LENGTH && SERIALIZED_ORIGIN.test(text);
}

/**
 * The check for a list of origins or a function, made when the app is built. A listed origin is
 * compared exactly (lower case, as browsers send it); a pattern and the function only see
 * well-formed origins; `null` (a sandboxed page, a file) passes only when listed as `"null"`.
 *
 * `owner` names what declared them in a refusal: `cors()`, or a WebSocket route's label.
 *
 * @example originCheck(["https://app.example.com", /^https:\/\/[a-z]+\.example\.com$/])
 */
export function originCheck(origins: Exclude<CorsOrigins, "*">, owner = "cors()"): OriginCheck {
  if (typeof origins === "function") {
    return (origin, request) => (origin === "null" || isSerializedOrigin(origin)) && origins(origin, request);
  }
  if (!Array.isArray(origins)) {
    throw new ValueError(
      `${owner}: origins must be "*", a list of origins, or a function (origin, request) => boolean.`,
    );
  }
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const entry of origins) {
    if (entry instanceof RegExp) patterns.push(entry);
    else exact.add(checkedOrigin(entry, owner));
  }
  if (patterns.length === 0) return (origin) => exact.has(origin);
  return (origin) =>
    exact.has(origin) || (isSerializedOrigin(origin) && patterns.some((pattern) => pattern.test(origin)));
}

function checkedOrigin(entry: unknown, owner: string): string {
  if (entry === "null") return entry;
  if (typeof entry === "string" && isSerializedOrigin(entry)) {
    // A browser leaves the scheme's default port out of the origin it sends: listed with it, the
    // origin would never match.
    const origin = entry.toLowerCase();
    const sent = URL.canParse(origin) ? new URL(origin).origin : origin;
    if (sent !== origin && sent !== "null") {
      throw new ValueError(
        `${owner}: ${JSON.stringify(entry)} never matches: browsers send an origin without its scheme's default port; write "${sent}"`,
      );
    }
    return origin;
  }
  if (entry === "*")
    throw new ValueError(`${owner}: give origins: "*" for any origin, not a list holding "*".`);
  const origin = typeof entry === "string" && URL.canParse(entry) ? new URL(entry).origin : "null";
  const hint = origin === "null" ? "" : `; did you mean "${origin}"?`;
  throw new ValueError(
    `${owner}: ${JSON.stringify(entry)} is not an origin: write scheme://host[:port], without a path${hint}`,
  );
}
