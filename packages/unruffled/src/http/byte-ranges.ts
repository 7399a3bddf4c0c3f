/** Bytes `start` to `end` of a representation, both included. */
export interface ByteSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * What a `Range` header asks of a representation of `size` bytes (RFC 9110 §14.2): one range of
 * bytes, several (a `multipart/byteranges` answer), none that the representation can satisfy (a
 * 416), or the whole representation. Empty list elements (`bytes=0-1, ,4-5,`) are ignored (RFC 9110
 * §5.6.1). A header that is malformed, of another unit than bytes, or that lists more than
 * `MAX_RANGES` ranges is answered with the whole, as the RFC allows a server to ignore `Range`.
 */
export type ByteRange =
  | { readonly kind: "whole" }
  | { readonly kind: "unsatisfiable" }
  | { readonly kind: "range"; readonly start: number; readonly end: number }
  | { readonly kind: "ranges"; readonly spans: readonly ByteSpan[] };

/**
 * The most ranges one `Range` header may list; more, and it is ignored (the whole file, 200), so
 * that a short header cannot ask for thousands of parts (RFC 9110 §14.2 lets a server ignore it).
 */
export const MAX_RANGES = 100;

const WHOLE: ByteRange = { kind: "whole" };
const UNSATISFIABLE: ByteRange = { kind: "unsatisfiable" };
// first-pos "-" [ last-pos ], or "-" suffix-length; optional whitespace around each spec.
const RANGE_SPEC = /^[ \t]*(?:(\d+)-(\d*)|-(\d+))[ \t]*$/;
const EMPTY_ELEMENT = /^[ \t]*$/;

/**
 * The ranges a `Range` header asks of `size` bytes: those past the end left out, those that overlap
 * or touch coalesced into one at the place of the first (RFC 9110 §15.3.7.2), the others in the order
 * asked. One left is a single range.
 *
 * @example byteRangeOf("bytes=0-99", 1000) // { kind: "range", start: 0, end: 99 }
 * @example byteRangeOf("bytes=-100", 1000) // { kind: "range", start: 900, end: 999 }
 * @example byteRangeOf("bytes=2000-", 1000) // { kind: "unsatisfiable" }
 * @example byteRangeOf("bytes=500-599,0-9", 1000) // { kind: "ranges", spans: [{ start: 500, end: 599 }, { start: 0, end: 9 }] }
 */
export function byteRangeOf(header: string, size: number): ByteRange {
  const equals = header.indexOf("=");
  if (equals < 0 || header.slice(0, equals).trim().toLowerCase() !== "bytes") return WHOLE;
  // Empty list elements (`0-1, ,4-5`, a trailing comma) are ignored (RFC 9110 §5.6.1); at least one range must remain.
  const specs = header
    .slice(equals + 1)
    .split(",")
    .filter((spec) => !EMPTY_ELEMENT.test(spec));
  if (specs.length === 0 || specs.length > MAX_RANGES) return WHOLE;
  const spans: ByteSpan[] = [];
  for (const spec of specs) {
    const match = RANGE_SPEC.exec(spec);
    if (match === null) return WHOLE;
    const range = rangeOf(match, size);
    if (range === undefined) return WHOLE;
    if (range.kind === "range") coalesce(spans, range);
  }
  if (spans.length === 0) return UNSATISFIABLE;
  if (spans.length === 1) return { kind: "range", start: spans[0]!.start, end: spans[0]!.end };
  return { kind: "ranges", spans };
}

/** Adds `span` to `spans` (none of which overlap or touch): merged with every one it overlaps or touches. */
function coalesce(spans: ByteSpan[], span: ByteSpan): void {
  let merged = span;
  let place = -1;
  for (let index = 0; index < spans.length; index++) {
    const other = spans[index]!;
    if (other.start > merged.end + 1 || merged.start > other.end + 1) continue;
    merged = { start: Math.min(other.start, merged.start), end: Math.max(other.end, merged.end) };
    if (place < 0) place = index;
    else spans.splice(index--, 1);
  }
  if (place < 0) spans.push(merged);
  else spans[place] = merged;
}

/** One spec's range; `undefined` when it is invalid (a last position before the first). */
function rangeOf(match: RegExpExecArray, size: number): ByteRange | undefined {
  const [, first, last, suffix] = match;
  if (suffix !== undefined) {
    const length = Number(suffix);
    if (length === 0 || size === 0) return UNSATISFIABLE;
    return { kind: "range", start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return undefined;
  if (start >= size) return UNSATISFIABLE;
  return { kind: "range", start, end: last === "" ? size - 1 : Math.min(Number(last), size - 1) };
}
