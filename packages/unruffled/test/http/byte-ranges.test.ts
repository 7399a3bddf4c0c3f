import { describe, expect, it } from "vitest";
import { type ByteRange, byteRangeOf, MAX_RANGES } from "../../src/http/byte-ranges.ts";

/** The spans of several ranges as [start, end] pairs; anything else as it is. */
function spansOf(range: ByteRange): [number, number][] | ByteRange {
  return range.kind === "ranges" ? range.spans.map(({ start, end }) => [start, end]) : range;
}

describe("byteRangeOf: empty list elements (RFC 9110 §5.6.1)", () => {
  it.each([
    ["an empty element between two ranges", "bytes=0-1, ,4-5"],
    ["two commas in a row", "bytes=0-1,,4-5"],
    ["a trailing comma", "bytes=0-1,4-5,"],
    ["a leading comma", "bytes=, 0-1,4-5"],
  ])("ignores %s", (_case, header) => {
    expect(spansOf(byteRangeOf(header, 10))).toEqual([
      [0, 1],
      [4, 5],
    ]);
  });

  it("answers one range with a trailing comma as that range", () => {
    expect(byteRangeOf("bytes=2-5,", 10)).toEqual({ kind: "range", start: 2, end: 5 });
  });

  it.each([
    ["only a comma", "bytes=,"],
    ["only commas and spaces", "bytes= , ,\t,"],
    ["nothing after the unit", "bytes="],
  ])("still answers a header of %s as malformed: the whole", (_case, header) => {
    expect(byteRangeOf(header, 10)).toEqual({ kind: "whole" });
  });

  it("still answers a malformed element beside empty ones as malformed: the whole", () => {
    expect(byteRangeOf("bytes=0-1,,x", 10)).toEqual({ kind: "whole" });
  });

  it("counts only the ranges, not the empty elements, against MAX_RANGES", () => {
    const ranges = Array.from({ length: MAX_RANGES }, (_, index) => `${index * 2}-${index * 2}`);
    const header = `bytes=${ranges.join(",,")},`;
    const range = byteRangeOf(header, MAX_RANGES * 2);
    expect(spansOf(range)).toHaveLength(MAX_RANGES);
    expect(byteRangeOf(`bytes=${ranges.join(",,")},${MAX_RANGES * 2}-`, MAX_RANGES * 3)).toEqual({
      kind: "whole",
    });
  });
});
