import { describe, expect, it } from "vitest";
import { DeliveryLedger } from "./delivery-ledger.ts";

const counters = (ledger: DeliveryLedger) => ({
  received: ledger.received,
  distinct: ledger.distinct,
  duplicates: ledger.duplicates,
  outOfOrder: ledger.outOfOrder,
  invalid: ledger.invalid,
  missing: ledger.missing(),
});

describe("the delivery ledger of bench:ws-broadcast", () => {
  it("expects every message once on every socket", () => {
    const ledger = new DeliveryLedger(2, 3);
    for (const socket of [0, 1]) for (const seq of [0, 1, 2]) ledger.record(socket, seq);
    expect(ledger.expected).toBe(6);
    expect(counters(ledger)).toEqual({
      received: 6,
      distinct: 6,
      duplicates: 0,
      outOfOrder: 0,
      invalid: 0,
      missing: 0,
    });
  });

  it("counts a message that arrived twice on one socket as a duplicate, not as delivered", () => {
    const ledger = new DeliveryLedger(2, 2);
    ledger.record(0, 0);
    ledger.record(0, 0);
    ledger.record(1, 0);
    expect(counters(ledger)).toEqual({
      received: 3,
      distinct: 2,
      duplicates: 1,
      outOfOrder: 0,
      invalid: 0,
      missing: 2,
    });
  });

  it("counts a message older than one its socket already had as out of order", () => {
    const ledger = new DeliveryLedger(1, 3);
    ledger.record(0, 2);
    ledger.record(0, 0);
    ledger.record(0, 1);
    expect(counters(ledger)).toEqual({
      received: 3,
      distinct: 3,
      duplicates: 0,
      outOfOrder: 2,
      invalid: 0,
      missing: 0,
    });
  });

  it("counts a sequence number outside the run as invalid, and the pairs never seen as missing", () => {
    const ledger = new DeliveryLedger(2, 2);
    ledger.record(0, 2);
    ledger.record(1, Number.NaN);
    ledger.record(1, 1);
    expect(counters(ledger)).toEqual({
      received: 3,
      distinct: 1,
      duplicates: 0,
      outOfOrder: 0,
      invalid: 2,
      missing: 3,
    });
  });
});
