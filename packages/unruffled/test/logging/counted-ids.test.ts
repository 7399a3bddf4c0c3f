import { describe, expect, it } from "vitest";
import { CountedIds } from "../../src/logging/counted-ids.ts";
import { requestIdFrom } from "../../src/logging/request-id.ts";

describe("CountedIds", () => {
  it("counts in decimal after its prefix, across every thousand", () => {
    const ids = new CountedIds("p-");
    for (let count = 1; count <= 12_345; count++) expect(ids.next()).toBe(`p-${count}`);
  });
});

describe("requestIdFrom", () => {
  it("makes <process prefix>-<counter> ids, one more each time, when the client sent none", () => {
    const first = requestIdFrom(undefined);
    const [, prefix, count] = /^([\w-]{8})-(\d+)$/.exec(first)!;
    for (let next = 1; next <= 2_000; next++) {
      expect(requestIdFrom(undefined)).toBe(`${prefix}-${Number(count) + next}`);
    }
  });

  it("keeps an acceptable id of the client's and replaces one that could forge a log line", () => {
    expect(requestIdFrom("3b1f-42")).toBe("3b1f-42");
    expect(requestIdFrom("bad id\n")).toMatch(/^[\w-]{8}-\d+$/);
    expect(requestIdFrom(["a", "b"])).toMatch(/^[\w-]{8}-\d+$/);
  });
});
