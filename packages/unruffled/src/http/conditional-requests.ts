/**
 * The validators of a file (RFC 9110 §8.8) and the conditions a request puts on them: an entity tag
 * made of its size and modification time, and `Last-Modified` to the second.
 */
export interface Validators {
  /** The quoted entity tag, `"<size>-<mtime in milliseconds>"` in hexadecimal. */
  readonly etag: string;
  /** The modification time, in milliseconds, rounded down to the second an HTTP date holds. */
  readonly modified: number;
}

/** A file's validators from its size and modification time (milliseconds). */
export function validatorsOf(size: number, mtimeMs: number): Validators {
  const modified = Math.floor(mtimeMs / 1000) * 1000;
  return { etag: `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`, modified };
}

// An entity tag: optionally weak, then an opaque quoted string.
const ENTITY_TAG = /(W\/)?"[^"]*"/g;

/**
 * Whether a request's preconditions on the file fail, which is a 412 (RFC 9110 §13.2.2, first two
 * steps): `If-Match` (`*`, or a list compared strongly with `etag`) decides when present; else
 * `If-Unmodified-Since`, when the file was modified after it. A date that cannot be read is ignored.
 *
 * @example preconditionFailed(`W/"d-1"`, undefined, validatorsOf(13, 1)) // true: If-Match compares strongly
 */
export function preconditionFailed(
  ifMatch: string | undefined,
  ifUnmodifiedSince: string | undefined,
  validators: Validators,
  etag: string = validators.etag,
): boolean {
  if (ifMatch !== undefined) {
    // The file exists (it was looked at): `*` holds.
    if (ifMatch.trim() === "*") return false;
    if (etag.startsWith("W/")) return true;
    for (const [tag] of ifMatch.matchAll(ENTITY_TAG)) if (tag === etag) return false;
    return true;
  }
  if (ifUnmodifiedSince === undefined) return false;
  const since = Date.parse(ifUnmodifiedSince);
  return !Number.isNaN(since) && validators.modified > since;
}

/**
 * Whether a GET or HEAD may be answered 304 (RFC 9110 §13.2.2): `If-None-Match` (`*`, or a list
 * compared weakly with `etag`) decides when present; else `If-Modified-Since`, when the file was not
 * modified after it. A date that cannot be read is ignored.
 *
 * @example notModified('W/"a-1", "b-2"', undefined, validatorsOf(11, 2000)) // false
 */
export function notModified(
  ifNoneMatch: string | undefined,
  ifModifiedSince: string | undefined,
  validators: Validators,
  etag: string = validators.etag,
): boolean {
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() === "*") return true;
    const own = opaqueTag(etag);
    for (const [tag] of ifNoneMatch.matchAll(ENTITY_TAG)) if (opaqueTag(tag) === own) return true;
    return false;
  }
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && validators.modified <= since;
}

/**
 * Whether a `Range` applies under `If-Range` (RFC 9110 §13.1.5): an entity tag must match strongly
 * (neither weak), a date must be the file's `Last-Modified` exactly; absent, it applies.
 */
export function rangeStillApplies(
  ifRange: string | undefined,
  validators: Validators,
  etag: string = validators.etag,
): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith("W/")) return !value.startsWith("W/") && value === etag;
  return Date.parse(value) === validators.modified;
}

/** The tag without its weakness mark: weak comparison ignores it. */
function opaqueTag(tag: string): string {
  return tag.startsWith("W/") ? tag.slice(2) : tag;
}
