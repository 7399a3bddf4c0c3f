import { createApp, DEFAULT_LIMITS } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { resolveLimits } from "../../src/app/settings.ts";
import { timeoutCheckInterval } from "../../src/server/connection-limits.ts";
import { echo } from "../support/echo.ts";
import { bodyOf, openRaw, statusOf } from "../support/raw-http.ts";
import { serveEndpoint } from "../support/serve.ts";

const hello = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ hello: "world" }) });
const bind = echo({ body: p.Json(z.object({ student_id: z.int() })) });
// Small timeouts keep the tests short; the bounds below leave room for a busy machine.
const fast = { headers_timeout: 500, request_timeout: 800, keep_alive_timeout: 300 };

/**
 * Node's refusal of a request it could not read, with the app's error body (the default format):
 * the status, the detail, an id, and the connection closed.
 */
function expectRefusal(raw: string, status: number, title: string, detail: string): void {
  const body = JSON.stringify({ detail });
  expect(raw).toMatch(
    new RegExp(
      `^HTTP/1\\.1 ${status} ${title}\r\ncontent-type: application/json\r\nx-request-id: [\\w-]+\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`,
    ),
  );
  expect(bodyOf(raw)).toBe(body);
}

const LATE = "The request did not arrive in time";

function elapsedSince(start: number): number {
  return performance.now() - start;
}

describe("the request head", () => {
  it("past header_size, Node answers 431 in the app's error format and closes", async () => {
    const server = await serveEndpoint("/hello", hello, ["GET"], {
      settings: { LIMITS: { header_size: 2048 } },
    });
    const exchange = await openRaw(server.port);
    await exchange.write(`GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(3000)}\r\n\r\n`);
    const raw = await exchange.closed();
    expectRefusal(
      raw,
      431,
      "Request Header Fields Too Large",
      "The request line and headers exceed the limit of 2048 bytes",
    );
  });

  it("header_size counts the request line too: a long URL is the same 431", async () => {
    const server = await serveEndpoint("/hello", hello, ["GET"], {
      settings: { LIMITS: { header_size: 2048 } },
    });
    const exchange = await openRaw(server.port);
    await exchange.write(`GET /hello?q=${"a".repeat(3000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectRefusal(
      await exchange.closed(),
      431,
      "Request Header Fields Too Large",
      "The request line and headers exceed the limit of 2048 bytes",
    );
  });

  it("under header_size, the same request is served", async () => {
    const server = await serveEndpoint("/hello", hello, ["GET"], {
      settings: { LIMITS: { header_size: 2048 } },
    });
    const exchange = await openRaw(server.port);
    await exchange.write(
      `GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: ${"a".repeat(1500)}\r\n\r\n`,
    );
    const raw = await exchange.closed();
    expect(statusOf(raw)).toBe(200);
    expect(JSON.parse(bodyOf(raw))).toEqual({ hello: "world" });
  });

  it("a client that never finishes its headers gets 408 and a closed connection after headers_timeout", async () => {
    const server = await serveEndpoint("/hello", hello, ["GET"], { settings: { LIMITS: fast } });
    const exchange = await openRaw(server.port);
    const start = performance.now();
    await exchange.write("GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: ");
    const raw = await exchange.closed(20_000);
    expectRefusal(raw, 408, "Request Timeout", LATE);
    // Not before the limit, and long before Node's own 30 s check interval would have allowed (a
    // bound that far from both holds on a busy machine).
    expect(elapsedSince(start)).toBeGreaterThanOrEqual(450);
    expect(elapsedSince(start)).toBeLessThan(15_000);
  });

  it("a client that trickles its headers byte by byte is cut at headers_timeout all the same", async () => {
    const server = await serveEndpoint("/hello", hello, ["GET"], { settings: { LIMITS: fast } });
    const exchange = await openRaw(server.port);
    await exchange.write("GET /hello HTTP/1.1\r\nHost: x\r\n");
    const trickle = setInterval(() => void exchange.write("X"), 50);
    try {
      const raw = await exchange.closed(20_000);
      expectRefusal(raw, 408, "Request Timeout", LATE);
    } finally {
      clearInterval(trickle);
    }
  });
});

describe("the request body", () => {
  it("a client that never finishes its body gets 408 and a closed connection after request_timeout", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"], { settings: { LIMITS: fast } });
    const exchange = await openRaw(server.port);
    const start = performance.now();
    await exchange.write(
      'POST /bind HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"student_id":',
    );
    const raw = await exchange.closed(20_000);
    expectRefusal(raw, 408, "Request Timeout", LATE);
    expect(elapsedSince(start)).toBeGreaterThanOrEqual(750);
    expect(elapsedSince(start)).toBeLessThan(15_000);
  });

  it("a chunked body that stalls is cut the same way, and the server keeps answering", async () => {
    const server = await serveEndpoint("/bind", bind, ["POST"], { settings: { LIMITS: fast } });
    const exchange = await openRaw(server.port);
    await exchange.write(
      'POST /bind HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{"\r\n',
    );
    expectRefusal(await exchange.closed(5_000), 408, "Request Timeout", LATE);
    const response = await server.fetch("/bind", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"student_id":1}',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ body: { student_id: 1 } });
  });
});

describe("keep-alive connections", () => {
  it("an idle connection is closed after keep_alive_timeout (plus Node's second of grace)", async () => {
    const server = await serveEndpoint("/hello", hello, ["GET"], { settings: { LIMITS: fast } });
    const exchange = await openRaw(server.port);
    await exchange.write("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
    await exchange.waitFor('{"hello":"world"}');
    const answered = performance.now();
    const raw = await exchange.closed(20_000);
    expect(statusOf(raw)).toBe(200);
    expect(elapsedSince(answered)).toBeGreaterThanOrEqual(250);
  });
});

describe("LIMITS settings", () => {
  it("documents every default", () => {
    expect(DEFAULT_LIMITS).toEqual({
      body_size: 1024 * 1024,
      json_depth: 64,
      form_size: 1024 * 1024,
      file_size: 10 * 1024 * 1024,
      upload_size: 50 * 1024 * 1024,
      files: 10,
      fields: 100,
      field_size: 1024 * 1024,
      header_size: 16 * 1024,
      headers_timeout: 10_000,
      request_timeout: 30_000,
      keep_alive_timeout: 5_000,
    });
  });

  it("gives an app's limits in force as app.limits: the defaults, with its own values over them", () => {
    const app = createApp({ settings: { LIMITS: { body_size: 4096, request_timeout: 2_000 } }, routes: [] });
    expect(app.limits).toEqual({
      ...DEFAULT_LIMITS,
      body_size: 4096,
      request_timeout: 2_000,
      headers_timeout: 2_000,
    });
    expect(createApp({ routes: [] }).limits).toEqual(DEFAULT_LIMITS);
  });

  it("lets a shorter request_timeout shorten the headers_timeout it did not set", () => {
    expect(resolveLimits({ request_timeout: 2_000 })).toMatchObject({
      headers_timeout: 2_000,
      request_timeout: 2_000,
    });
  });

  it("refuses a headers_timeout longer than request_timeout, an unknown key and a non-positive value", () => {
    expect(() => resolveLimits({ headers_timeout: 5_000, request_timeout: 1_000 })).toThrow(
      'The LIMITS setting "headers_timeout" (5000 ms) must not exceed "request_timeout" (1000 ms)',
    );
    expect(() => resolveLimits({ body_sise: 10 } as never)).toThrow('Unknown LIMITS setting "body_sise"');
    expect(() => resolveLimits({ files: 0 })).toThrow(
      'The LIMITS setting "files" must be a positive whole number, got 0',
    );
  });

  it("checks for late clients often enough that every timeout holds within a tenth of its value", () => {
    expect(timeoutCheckInterval(resolveLimits({}))).toBe(1_000);
    expect(timeoutCheckInterval(resolveLimits(fast))).toBe(50);
    expect(timeoutCheckInterval(resolveLimits({ headers_timeout: 20, request_timeout: 20 }))).toBe(10);
  });
});
