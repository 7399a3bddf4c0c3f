import type { Answer } from "./results.ts";

/** One policy of a rate-limited operation, as its answer's `RateLimit-Policy` and `RateLimit` tell it. */
export interface RateLimitState {
  readonly policy: string;
  /** Units per window (`q`). */
  readonly quota?: number;
  /** The window in seconds (`w`). */
  readonly window?: number;
  /** Units left (`r`). */
  readonly remaining?: number;
  /** Seconds until the quota is whole (`t`). */
  readonly reset?: number;
}

/** A documented 429: the body, plus when to retry and the state of each policy. */
export interface RateLimitedAnswer<ContentType extends string | null, Body>
  extends Answer<429, ContentType, Body> {
  /** Seconds to wait before retrying (`Retry-After`), or undefined when the answer does not say. */
  readonly retryAfter: number | undefined;
  readonly policies: readonly RateLimitState[];
}

/**
 * The policies of an answer, from its `RateLimit-Policy` and `RateLimit` fields (structured-field
 * Lists of Strings with integer parameters). What it cannot read, it leaves out.
 *
 * @example rateLimitStates(new Headers({ "ratelimit-policy": '"hourly";q=20;w=3600', ratelimit: '"hourly";r=0;t=180' }))
 * // [{ policy: "hourly", quota: 20, window: 3600, remaining: 0, reset: 180 }]
 */
export function rateLimitStates(headers: Headers): RateLimitState[] {
  const byName = new Map<string, Record<string, number | string>>();
  const read = (field: string | null, keys: Record<string, string>) => {
    for (const [name, params] of listItems(field ?? "")) {
      const state = byName.get(name) ?? { policy: name };
      for (const [key, value] of Object.entries(params))
        if (keys[key] !== undefined) state[keys[key]] = value;
      byName.set(name, state);
    }
  };
  read(headers.get("ratelimit-policy"), { q: "quota", w: "window" });
  read(headers.get("ratelimit"), { r: "remaining", t: "reset" });
  return [...byName.values()] as unknown as RateLimitState[];
}

/**
 * `Retry-After` in seconds: a number of seconds, or an HTTP date from now (0 once past). Anything
 * else (`-5`, `1.5`, `soon`) is no `Retry-After`: undefined.
 */
export function retryAfterSeconds(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // Every form of HTTP date names its month; Date.parse alone takes "-5" for a day in 2001.
  if (!/[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The members of a List whose items are Strings (or Tokens) with integer parameters. */
function listItems(field: string): [string, Record<string, number>][] {
  const items: [string, Record<string, number>][] = [];
  const member =
    /\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z*][\w:/!#$%&'*+.^`|~-]*))((?:\s*;\s*[a-z*][a-z0-9_.*-]*(?:=[^;,]*)?)*)\s*(?:,|$)/y;
  while (member.lastIndex < field.length) {
    const match = member.exec(field);
    if (match === null) break;
    const name = match[1] === undefined ? match[2]! : match[1].replace(/\\(.)/g, "$1");
    const params: Record<string, number> = {};
    for (const param of match[3]!.split(";").slice(1)) {
      const [key, value] = param.split("=").map((part) => part.trim());
      if (key && value !== undefined && /^-?\d{1,15}$/.test(value)) params[key] = Number(value);
    }
    items.push([name, params]);
    if (match[0] === "") break;
  }
  return items;
}
