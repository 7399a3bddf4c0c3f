import { describe, expect, it } from "vitest";
import { toBoolean, toDate, toNumber } from "../../../src/route/wire/coerce.ts";

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

  it.each([
    "",
    " 1",
    "1 ",
    "0x10",
    "1_000",
    "NaN",
    "Infinity",
    "1,5",
    "--1",
    "١٢",
    "1e400",
    "-1e309",
    `9${"9".repeat(400)}`,
  ])("leaves %j as it is", (raw) => {
    expect(toNumber(raw)).toBe(raw);
  });
});

describe("toBoolean", () => {
  it("reads only the whitelisted words", () => {
    expect(["true", "On", "YES", "1"].map(toBoolean)).toEqual([true, true, true, true]);
    expect(["false", "off", "No", "0"].map(toBoolean)).toEqual([false, false, false, false]);
    expect(["", "y", "2", "truthy"].map(toBoolean)).toEqual(["", "y", "2", "truthy"]);
  });
});

describe("toDate", () => {
  it.each([
    ["2026-03-02T09:30:00Z", "2026-03-02T09:30:00.000Z"],
    ["2026-03-02t09:30:00z", "2026-03-02T09:30:00.000Z"],
    ["2026-03-02T09:30:00.123456+02:00", "2026-03-02T07:30:00.123Z"],
    ["2026-03-02T09:30Z", "2026-03-02T09:30:00.000Z"],
    ["2024-02-29T00:00:00-01:00", "2024-02-29T01:00:00.000Z"],
  ])("reads the RFC 3339 date-time %j as a Date", (raw, iso) => {
    expect((toDate(raw) as Date).toISOString()).toBe(iso);
  });

  it.each([
    "2026-03-02T09:30:00",
    "2026-03-02",
    "2026-02-29T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-03-02T24:00:00Z",
    " 2026-03-02T09:30:00Z",
    "1700000000000",
  ])("leaves %j as it is", (raw) => {
    expect(toDate(raw)).toBe(raw);
  });
});
