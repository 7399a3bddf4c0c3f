// The generated client's 429 branch: Retry-After and the policies, and the opt-in retry.

import { waitFor } from "process-support";
import { createApp } from "unruffled";
import {
  bindOperations,
  type CallOptions,
  type RateLimitedAnswer,
  rateLimitStates,
  retryAfterSeconds,
} from "unruffled/client";
import { JsonResponse } from "unruffled/http";
import { memoryStore, rateLimit } from "unruffled/rate-limit";
import { endpoint, path } from "unruffled/route";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterEach, describe, expect, it } from "vitest";
import { clientModel } from "../../src/client-generator/client-model.ts";
import { generateClient } from "../../src/client-generator/index.ts";

const hello = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ hello: "you" }) });
const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

function limitedApp(
  limit: number,
  window: number,
  format: "detail" | "problem" = "detail",
  clock?: () => number,
) {
  return createApp({
    settings: { ERRORS: { format } },
    routes: [
      path("/hello", {
        endpoint: hello,
        name: "hello",
        rateLimits: [rateLimit({ name: "quota", limit, window })],
      }),
    ],
    rateLimitStore: memoryStore(clock === undefined ? {} : { clock }),
  });
}

type Hello = (
  params?: Record<string, never>,
  options?: CallOptions,
) => Promise<{ kind: string; status?: number } & Partial<RateLimitedAnswer<string, unknown>>>;

async function clientOf(app: ReturnType<typeof limitedApp>, retry?: { attempts?: number; maxWait?: number }) {
  const server = await startServer(app);
  running.push(server);
  const plans = Object.fromEntries(
    clientModel(app).operations.map((operation) => [operation.member, operation.plan]),
  );
  return bindOperations<{ hello: Hello }>(plans, {
    baseUrl: server.url,
    ...(retry ? { retryRateLimited: retry } : {}),
  });
}

describe("the client of a limited operation", () => {
  it("types the 429 branch with retryAfter and the policies", () => {
    const source = generateClient(limitedApp(2, 3600, "problem"));
    expect(source).toContain("  type RateLimitedAnswer,\n");
    expect(source).toContain(
      'export type HelloResult =\n  | Answer<200, "application/json", unknown>\n  | RateLimitedAnswer<"application/problem+json", QuotaExceededProblem>\n  | Unexpected;',
    );
    expect(source).toContain('  type: "https://iana.org/assignments/http-problem-types#quota-exceeded";');
  });

  it("reads Retry-After and each policy's state on a 429", async () => {
    const client = await clientOf(limitedApp(1, 3600, "detail", () => 1_700_000_000_000));
    expect((await client.hello()).status).toBe(200);
    const refused = await client.hello();
    expect(refused).toMatchObject({
      kind: "documented",
      status: 429,
      retryAfter: 3600,
      policies: [{ policy: "quota", quota: 1, window: 3600, remaining: 0, reset: 3600 }],
      body: { detail: 'Too Many Requests: the quota of policy "quota" is exhausted; retry in 3600 s' },
    });
  });

  it("retries after Retry-After when asked, and is admitted once the quota allows", async () => {
    // One unit per second: the retry waits the second the 429 asks for, then is admitted.
    const client = await clientOf(limitedApp(1, 1), { attempts: 3, maxWait: 5 });
    expect((await client.hello()).status).toBe(200);
    expect((await client.hello()).status).toBe(200);
  });

  it("gives the 429 back when Retry-After asks for more than maxWait", async () => {
    const client = await clientOf(limitedApp(1, 3600), { maxWait: 5 });
    await client.hello();
    expect(await client.hello()).toMatchObject({ status: 429, retryAfter: 3600 });
  });
  it("gives a call aborted while it waits to retry a 429 as aborted, as fetch does, not the 429", async () => {
    // A clock that stands still: the second call is refused, whatever the machine's pace.
    const app = limitedApp(1, 30, "detail", () => 1_700_000_000_000);
    const server = await startServer(app);
    running.push(server);
    const plans = Object.fromEntries(
      clientModel(app).operations.map((operation) => [operation.member, operation.plan]),
    );
    const abort = new AbortController();
    const answered: Response[] = [];
    const client = bindOperations<{ hello: Hello }>(plans, {
      baseUrl: server.url,
      retryRateLimited: { attempts: 2, maxWait: 60 },
      // Each answer read whole before the client sees it, so only the wait can see the abort.
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const copy = new Response(await response.arrayBuffer(), response);
        answered.push(copy);
        return copy;
      },
    });
    expect((await client.hello()).status).toBe(200);
    const calling = client.hello({}, { signal: abort.signal });
    await waitFor("the 429 the call would wait to retry", () => (answered.length === 2 ? true : undefined));
    expect(answered[1]!.status).toBe(429);
    abort.abort();
    expect(await calling).toEqual({
      kind: "network-failure",
      aborted: true,
      error: abort.signal.reason,
      message: "The call was aborted.",
    });
    expect(answered).toHaveLength(2);
  });
});

describe("reading the rate-limit fields", () => {
  it("reads both fields of several policies", () => {
    const headers = new Headers({
      "ratelimit-policy": '"hourly";q=20;w=3600, "burst";q=3;w=60',
      ratelimit: '"hourly";r=17;t=540, "burst";r=0;t=60',
    });
    expect(rateLimitStates(headers)).toEqual([
      { policy: "hourly", quota: 20, window: 3600, remaining: 17, reset: 540 },
      { policy: "burst", quota: 3, window: 60, remaining: 0, reset: 60 },
    ]);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(retryAfterSeconds("120")).toBe(120);
    expect(retryAfterSeconds("Thu, 01 Jan 2026 00:01:00 GMT", Date.parse("2026-01-01T00:00:00Z"))).toBe(60);
    expect(retryAfterSeconds(null)).toBeUndefined();
  });
});
