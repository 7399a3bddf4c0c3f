import { type Decision, rateLimit } from "unruffled/rate-limit";
import { describe, expect, it } from "vitest";
import { RateLimitField } from "../../src/rate-limit/headers.ts";

const hourly = rateLimit({ name: "hourly", limit: 20, window: 3600 });
const burst = rateLimit({ name: "burst", limit: 3, window: 60 });

const decision = (remaining: number, resetSeconds: number): Decision => ({
  admitted: true,
  remaining,
  reset: resetSeconds * 1_000_000,
  retryAfter: 0,
});

describe("RateLimitField", () => {
  it("writes each policy's remaining units and the whole seconds until its quota is whole", () => {
    const field = new RateLimitField([hourly, burst]);
    expect(field.of([decision(19, 180), { ...decision(2, 20), reset: 19_000_001 }])).toBe(
      '"hourly";r=19;t=180, "burst";r=2;t=20',
    );
  });

  it("sends one policy's last string again while its numbers hold, and a new one when they change", () => {
    const field = new RateLimitField([hourly]);
    const first = field.of([decision(19, 180)]);
    expect(first).toBe('"hourly";r=19;t=180');
    expect(field.of([{ ...decision(19, 180), reset: 179_500_000 }])).toBe(first);
    expect(field.of([decision(18, 180)])).toBe('"hourly";r=18;t=180');
    expect(field.of([decision(18, 181)])).toBe('"hourly";r=18;t=181');
  });
});
