import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readInbound } from "../../src/websocket/inbound.ts";

const Say = z.object({ type: z.literal("say"), text: z.string().min(1) });

describe("readInbound", () => {
  it("reads a message decoded already (Bun's) as it reads its bytes (ws's)", () => {
    for (const text of [
      '{"type":"say","text":"été"}',
      '{"type":"say","text":""}',
      "{not json",
      "",
      '\ufeff{"type":"say","text":"b"}',
    ]) {
      expect(readInbound(text, Say, 64)).toEqual(readInbound(Buffer.from(text), Say, 64));
    }
    expect(readInbound('{"type":"say","text":"été"}', Say, 64)).toEqual({
      ok: true,
      value: { type: "say", text: "été" },
    });
  });

  it("refuses a string nested deeper than the JSON limit, as bytes are", () => {
    expect(readInbound("[[[1]]]", z.unknown(), 2)).toEqual({
      ok: false,
      issues: [
        {
          loc: ["message"],
          msg: "Malformed JSON message: nested deeper than the limit of 2 levels",
          type: "json_invalid",
          input: null,
        },
      ],
    });
  });

  it("looks for numbers past a double's range only where the route's model may pass one on", () => {
    expect(readInbound('{"a": [-1e400]}', z.unknown(), 64, true)).toEqual({
      ok: false,
      issues: [
        {
          loc: ["message", "a", 0],
          msg: "Number out of range: a double holds at most ±1.7976931348623157e+308",
          type: "too_small",
          input: "-1e400",
        },
      ],
    });
    // A model whose every number is checked by a number schema is never walked (its build said so).
    expect(readInbound('{"a": [-1e400]}', z.unknown(), 64, false)).toEqual({
      ok: true,
      value: { a: [Number.NEGATIVE_INFINITY] },
    });
  });
});
