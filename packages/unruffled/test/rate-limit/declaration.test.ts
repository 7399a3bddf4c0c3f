import { createApp, ValueError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { rateLimit } from "unruffled/rate-limit";
import { endpoint, path } from "unruffled/route";
import { describe, expect, it } from "vitest";

const hello = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({}) });
const hourly = rateLimit({ name: "hourly", limit: 20, window: 3600 });

describe("rate limits are checked when they are declared and when the app is built", () => {
  it("refuses a policy without a whole positive limit or window, or with a cost past its limit", () => {
    expect(() => rateLimit({ name: "h", limit: 0, window: 60 })).toThrow(
      new ValueError('rateLimit("h"): limit must be a positive whole number, got 0.'),
    );
    expect(() => rateLimit({ name: "h", limit: 5, window: 1.5 })).toThrow(
      new ValueError('rateLimit("h"): window must be a positive whole number, got 1.5.'),
    );
    expect(() => rateLimit({ name: "h", limit: 5, window: 60, cost: 6 })).toThrow(
      new ValueError(
        'rateLimit("h"): cost must be a whole number from 1 to the limit (5), or a function; got 6.',
      ),
    );
  });

  it("refuses a name that the headers could not carry", () => {
    expect(() => rateLimit({ name: 'say "hi"', limit: 5, window: 60 })).toThrow(
      new ValueError('rateLimit(): the name "say \\"hi\\"" must be 1 to 64 letters, digits or "_-.:".'),
    );
  });

  it("refuses two policies of one name on a route", () => {
    expect(() =>
      createApp({
        routes: [path("/hello", { endpoint: hello, rateLimits: [hourly] })],
        rateLimits: [hourly],
      }),
    ).toThrow(
      new ValueError(
        'endpoint "get_hello" (GET /hello) has two rate-limit policies named "hourly"; give each policy its own name.',
      ),
    );
  });

  it("refuses two policies of one name and different quotas in an app: a name is one quota in the store", () => {
    const strict = rateLimit({ name: "api", limit: 2, window: 3600 });
    const loose = rateLimit({ name: "api", limit: 100, window: 60 });
    expect(() =>
      createApp({
        routes: [
          path("/strict", { endpoint: hello, rateLimits: [strict] }),
          path("/loose", { endpoint: hello, rateLimits: [loose] }),
        ],
      }),
    ).toThrow(
      new ValueError(
        'endpoint "get_loose" (GET /loose) has the rate-limit policy "api" of 100 per 60 s, and another route one of 2 per 3600 s: a name is one quota, so give each policy its own name.',
      ),
    );
    // The same quota under one name, on several routes, is one policy: it is shared.
    const again = rateLimit({ name: "api", limit: 2, window: 3600, cost: 2 });
    expect(() =>
      createApp({
        routes: [
          path("/strict", { endpoint: hello, rateLimits: [strict] }),
          path("/heavy", { endpoint: hello, rateLimits: [again] }),
        ],
      }),
    ).not.toThrow();
  });

  it("refuses rateLimits that are not a list of policies", () => {
    expect(() =>
      createApp({ routes: [path("/hello", { endpoint: hello, rateLimits: [{ limit: 1 }] as never })] }),
    ).toThrow(new ValueError('path("/hello"): rateLimits must be a list of rateLimit({ ... }) policies.'));
  });

  it("refuses an unknown RATE_LIMITS key or value", () => {
    expect(() => createApp({ routes: [], settings: { RATE_LIMITS: { fail: "open" } as never } })).toThrow(
      new TypeError('Unknown RATE_LIMITS setting "fail"'),
    );
    expect(() =>
      createApp({ routes: [], settings: { RATE_LIMITS: { on_store_failure: "sometimes" as "open" } } }),
    ).toThrow(
      new TypeError('The RATE_LIMITS setting "on_store_failure" must be "open" or "closed", got "sometimes"'),
    );
  });

  it("refuses a store_timeout that is not a whole number of ms from 1", () => {
    for (const store_timeout of [0, -5, 1.5, Number.NaN, "1000" as unknown as number]) {
      expect(() => createApp({ routes: [], settings: { RATE_LIMITS: { store_timeout } } })).toThrow(
        new TypeError('The RATE_LIMITS setting "store_timeout" must be a whole number of ms, at least 1'),
      );
    }
  });
});
