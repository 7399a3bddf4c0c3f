/**
 * Coercion of string values (path, query, header, cookie, form) to the declared type, before Zod
 * validates them. A string that is not a clean spelling of the type is left as it is, so that Zod
 * reports it with the value the client sent.
 */
export type Coercer = (raw: string) => unknown;

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** `"2"` → 2, `"-1.5e3"` → -1500; `""`, `"0x10"`, `"NaN"`, `" 2"`, `"1e400"` stay strings. */
export const toNumber: Coercer = (raw) => {
  // Plain digits (page numbers, ids) are the common case: read them without a regular expression.
  const length = raw.length;
  if (length > 0 && length < 16) {
    let value = 0;
    let index = 0;
    for (; index < length; index++) {
      const digit = raw.charCodeAt(index) - 48;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    if (index === length) return value;
  }
  if (!DECIMAL.test(raw)) return raw;
  // Past the largest double (1e400) the number is Infinity, which no number schema accepts and JSON
  // writes as null: it reaches Zod as sent, as "Infinity" does, so that the 422 quotes it.
  const value = Number(raw);
  return Number.isFinite(value) ? value : raw;
};

const TRUE_WORDS = new Set(["true", "1", "yes", "on"]);
const FALSE_WORDS = new Set(["false", "0", "no", "off"]);

/** Only `true/false/1/0/yes/no/on/off` (any case) become booleans, never JavaScript truthiness. */
export const toBoolean: Coercer = (raw) => {
  const word = raw.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return raw;
};

/** For unions and enums that mix strings with numbers or booleans: a declared string value wins. */
export function coerceTowards(stringValues: ReadonlySet<string>, number: boolean, boolean: boolean): Coercer {
  return (raw) => {
    if (stringValues.has(raw)) return raw;
    if (number && DECIMAL.test(raw)) return Number(raw);
    if (boolean) return toBoolean(raw);
    return raw;
  };
}

// RFC 3339 date-time (what `format: date-time` documents), seconds optional; an offset is required:
// a time without one names no instant.
const DATE_TIME =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/**
 * `"2026-03-01T09:30:00Z"` → a `Date`; any other value, or a string that is not an RFC 3339
 * date-time with an offset (`"2026-02-30T00:00:00Z"`, `"2026-03-01"`, `"2026-03-01T09:30"`), stays
 * as it is, so that Zod reports it as the client sent it.
 */
export function toDate(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  const match = DATE_TIME.exec(raw);
  if (match === null) return raw;
  // Date.parse rolls 30 February over into March: refuse a day the month does not have.
  const [, year, month, day] = match;
  if (Number(day) > new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate()) return raw;
  return new Date(raw);
}
