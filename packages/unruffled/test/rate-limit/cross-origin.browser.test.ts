// What a page on another origin reads of a limited route's answers (docs/rate-limits.md, "In the
// document and the client"): the RateLimit fields and Retry-After only when CORS exposes them, as
// the typed client needs them for `policies` and `retryAfter`.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cors, createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { rateLimit } from "unruffled/rate-limit";
import { endpoint, path } from "unruffled/route";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { launchChromium, noChromium } from "../support/chromium.ts";

// Chromium is slow on a busy machine: a page gets minutes, never a race against the clock.
vi.setConfig({ testTimeout: 180_000 });

const RATE_LIMIT_FIELDS = ["RateLimit", "RateLimit-Policy", "Retry-After"];

const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hello") });

/** An app whose one route admits one request a minute, callable from `origin`'s pages. */
function limitedApp(origin: string, exposeHeaders?: string[]) {
  return createApp({
    middleware: [cors({ origins: [origin], exposeHeaders })],
    routes: [
      path("/hello", { endpoint: hello, rateLimits: [rateLimit({ name: "minute", limit: 1, window: 60 })] }),
    ],
  });
}

describe.skipIf(noChromium)("a limited route called from a page on another origin", () => {
  let page: Server;
  let pageOrigin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    page = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Page</title>");
    });
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => page?.close(resolve));
  });

  /** Two calls from the page: what its script reads of each answer's rate-limit fields. */
  async function readFromPage(service: RunningServer) {
    const tab = await browser.context.newPage();
    try {
      await tab.goto(`${pageOrigin}/`);
      return await tab.evaluate(async (url) => {
        const read = async () => {
          const response = await fetch(url);
          const fields = ["ratelimit", "ratelimit-policy", "retry-after"].map((name) =>
            response.headers.get(name),
          );
          return [response.status, ...fields];
        };
        return [await read(), await read()];
      }, `${service.url}/hello`);
    } finally {
      await tab.close();
    }
  }

  it("reads nothing of them when CORS does not expose them", async () => {
    const service = await startServer(limitedApp(pageOrigin));
    try {
      expect(await readFromPage(service)).toEqual([
        [200, null, null, null],
        [429, null, null, null],
      ]);
    } finally {
      await service.close();
    }
  });

  it('reads them with cors({ exposeHeaders: ["RateLimit", "RateLimit-Policy", "Retry-After"] })', async () => {
    const service = await startServer(limitedApp(pageOrigin, RATE_LIMIT_FIELDS));
    try {
      const [first, second] = await readFromPage(service);
      expect(first).toEqual([200, expect.stringMatching(/^"minute";r=0;t=\d+$/), '"minute";q=1;w=60', null]);
      expect(second).toEqual([
        429,
        expect.stringMatching(/^"minute";r=0;t=\d+$/),
        '"minute";q=1;w=60',
        expect.stringMatching(/^\d+$/),
      ]);
    } finally {
      await service.close();
    }
  });
});
