/**
 * What a `Range` header asks of a representation of `size` bytes (RFC 9110 §14.2): one range of
 * bytes (`start` to `end`, both included), none that the representation can satisfy (a 416), or the
 * whole representation. A header that is malformed, of another unit than bytes, or that asks for
 * several ranges (of which at least one can be satisfied) is answered with the whole, as the RFC
 * allows a server to ignore `Range`.
 */
export type ByteRange =
  | { readonly kind: "whole" }
  | { readonly kind: "unsatisfiable" }
  | { readonly kind: "range"; readonly start: number; readonly end: number };

const WHOLE: ByteRange = { kind: "whole" };
const UNSATISFIABLE: ByteRange = { kind: "unsatisfiable" };
// first-pos "-" [ last-pos ], or "-" suffix-length; optional whitespace around each spec.
const RANGE_SPEC = /^[ \t]*(?:(\d+)-(\d*)|-(\d+))[ \t]*$/;

/**
 * The range a `Range` header asks of `size` bytes.
 *
 * @example byteRangeOf("bytes=0-99", 1000) // { kind: "range", start: 0, end: 99 }
 * @example byteRangeOf("bytes=-100", 1000) // { kind: "range", start: 900, end: 999 }
 * @example byteRangeOf("bytes=2000-", 1000) // { kind: "unsatisfiable" }
 */
export function byteRangeOf(header: string, size: number): ByteRange {
  const equals = header.indexOf("=");
  if (equals < 0 || header.slice(0, equals).trim().toLowerCase() !== "bytes") return WHOLE;
  const specs = header.slice(equals + 1).split(",");
  let found: ByteRange | undefined;
  let satisfiable = 0;
  for (const spec of specs) {
    const match = RANGE_SPEC.exec(spec);
    if (match === null) return WHOLE;
    const range = rangeOf(match, size);
    if (range === undefined) return WHOLE;
    if (range.kind === "range") {
      satisfiable++;
      found = range;
    }
  }
  if (satisfiable === 0) return UNSATISFIABLE;
  return satisfiable === 1 && specs.length === 1 ? found! : WHOLE;
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
