/** Options of a `Set-Cookie` header (RFC 6265bis attributes). */
export interface CookieOptions {
  maxAge?: number;
  expires?: Date;
  path?: string;
  domain?: string;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: "Strict" | "Lax" | "None";
  partitioned?: boolean;
}

// RFC 6265 cookie-name is an HTTP token; attribute values may not hold ";" or control characters.
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must be refused.
const ATTRIBUTE_VALUE = /^[^\u0000-\u001f\u007f;]*$/;

/**
 * Reads a `Cookie` header into a map. Later duplicates do not override the first value, as browsers
 * send the most specific cookie first; undecodable values are kept as sent.
 *
 * @example parseCookies("session=abc; theme=dark") // { session: "abc", theme: "dark" }
 */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null);
  if (!header) return cookies;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name === "" || name in cookies) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length > 1 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    cookies[name] = safeDecode(value);
  }
  return cookies;
}

function safeDecode(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Builds one `Set-Cookie` header value. The value is percent-encoded; a name or attribute that would
 * break the header is refused with a TypeError rather than sent.
 *
 * @example serializeCookie("session", "abc", { httpOnly: true, path: "/" }) // "session=abc; Path=/; HttpOnly"
 */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  if (!COOKIE_NAME.test(name)) throw new TypeError(`Invalid cookie name ${JSON.stringify(name)}`);
  let header = `${name}=${encodeURIComponent(value)}`;
  if (options.maxAge !== undefined) {
    if (!Number.isInteger(options.maxAge)) throw new TypeError(`Cookie maxAge must be an integer of seconds`);
    header += `; Max-Age=${options.maxAge}`;
  }
  if (options.expires) header += `; Expires=${options.expires.toUTCString()}`;
  if (options.path !== undefined) header += `; Path=${checkedAttribute("path", options.path)}`;
  if (options.domain !== undefined) header += `; Domain=${checkedAttribute("domain", options.domain)}`;
  if (options.secure) header += "; Secure";
  if (options.httpOnly) header += "; HttpOnly";
  if (options.sameSite !== undefined) header += `; SameSite=${checkedSameSite(options.sameSite)}`;
  if (options.partitioned) header += "; Partitioned";
  return header;
}

// The three values browsers know, in any case, as Starlette and Express accept them.
const SAME_SITE = new Map([
  ["strict", "Strict"],
  ["lax", "Lax"],
  ["none", "None"],
]);

/** The `SameSite` value as browsers spell it; anything else (a value from a user, say) is refused. */
function checkedSameSite(value: unknown): string {
  const known = typeof value === "string" ? SAME_SITE.get(value.toLowerCase()) : undefined;
  if (known === undefined)
    throw new TypeError(
      `Invalid cookie sameSite ${JSON.stringify(value)}: expected "Strict", "Lax" or "None"`,
    );
  return known;
}

function checkedAttribute(attribute: string, value: string): string {
  if (!ATTRIBUTE_VALUE.test(value))
    throw new TypeError(`Invalid cookie ${attribute} ${JSON.stringify(value)}`);
  return value;
}
