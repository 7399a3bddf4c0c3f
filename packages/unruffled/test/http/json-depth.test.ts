import { describe, expect, it } from "vitest";
import { jsonNestsDeeperThan } from "../../src/http/json-depth.ts";

describe("jsonNestsDeeperThan", () => {
  it("passes a text nested exactly to the limit and refuses one level more", () => {
    expect([jsonNestsDeeperThan('{"a":[{"b":1}]}', 3), jsonNestsDeeperThan('{"a":[{"b":[1]}]}', 3)]).toEqual([
      false,
      true,
    ]);
  });

  it("passes a shallow text with more opening brackets than the limit", () => {
    const siblings = `[${Array.from({ length: 100 }, () => '{"a":[1]}').join(",")}]`;
    expect([jsonNestsDeeperThan(siblings, 3), jsonNestsDeeperThan(siblings, 2)]).toEqual([false, true]);
  });

  it("does not count brackets inside strings, however many", () => {
    const text = JSON.stringify({ note: "[[[[{{{{".repeat(20), escaped: '\\"[[[[' });
    expect(jsonNestsDeeperThan(text, 1)).toBe(false);
  });
});
