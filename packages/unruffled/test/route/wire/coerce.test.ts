import { describe, expect, it } from "vitest";
import { toBoolean, toNumber } from "../../../src/route/wire/coerce.ts";

describe("toNumber", () => {
  it.each([
    ["0", 0],
    ["7", 7],
    ["007", 7],
    ["123456789012345", 123456789012345],
    ["12345678901234567", Number("12345678901234567")],
    ["-3", -3],
    ["+4", 4],
    ["2.5", 2.5],
    [".5", 0.5],
    ["1e3", 1000],
  ])("reads %j as %s", (raw, expected) => {
    expect(toNumber(raw)).toBe(expected);
  });

  it.each(["", " 1", "1 ", "0x10", "1_000", "NaN", "Infinity", "1,5", "--1", "١٢"])(
    "leaves %j as it is",
    (raw) => {
      expect(toNumber(raw)).toBe(raw);
    },
  );
});

describe("toBoolean", () => {
  it("reads only the whitelisted words", () => {
    expect(["true", "On", "YES", "1"].map(toBoolean)).toEqual([true, true, true, true]);
    expect(["false", "off", "No", "0"].map(toBoolean)).toEqual([false, false, false, false]);
    expect(["", "y", "2", "truthy"].map(toBoolean)).toEqual(["", "y", "2", "truthy"]);
  });
});
