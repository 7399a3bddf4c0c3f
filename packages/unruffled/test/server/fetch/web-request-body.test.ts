import { waitFor } from "process-support";
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { PayloadTooLargeError } from "../../../src/errors.ts";
import { WebRequestBody } from "../../../src/server/fetch/web-request-body.ts";

function bodyOf(text: string): WebRequestBody {
  const request = new Request("http://localhost/bind", {
    method: "POST",
    headers: { "content-length": String(Buffer.byteLength(text)) },
    body: text,
  });
  return new WebRequestBody(request, request.headers);
}

/** What collectHeldText hands over, and whether it did so at once. */
function collected(body: WebRequestBody) {
  let outcome: { error: Error | undefined; text: string | undefined } | undefined;
  const held = body.collectHeldText((error, text) => {
    outcome = { error, text };
  });
  return { held, outcome };
}

describe("WebRequestBody", () => {
  it("reads the announced length only when asked", () => {
    let reads = 0;
    const headers = new Headers({ "content-length": "12" });
    const get = headers.get.bind(headers);
    Object.defineProperty(headers, "get", {
      value: (name: string) => {
        reads++;
        return get(name);
      },
    });
    const body = new WebRequestBody(new Request("http://localhost/", { headers }), headers);
    expect(reads).toBe(0);
    expect(body.length).toBe(12);
    expect(body.length).toBe(12);
    expect(reads).toBe(1);
  });

  it("hands a text read ahead over at once, and gives the same text and bytes on every later read", async () => {
    const body = bodyOf("unused");
    body.hold('{"name":"Zoë"}', undefined, 64);
    expect(collected(body)).toEqual({ held: true, outcome: { error: undefined, text: '{"name":"Zoë"}' } });
    expect(await body.readText(64)).toBe('{"name":"Zoë"}');
    expect(await body.read(64)).toEqual(Buffer.from('{"name":"Zoë"}', "utf8"));
    expect(body.abandoned).toBe(false);
  });

  it("hands over the error that reading ahead met, and gives it to every later read", async () => {
    const body = bodyOf("unused");
    const failure = new TypeError("Body already used");
    body.hold(undefined, failure, 64);
    expect(collected(body)).toEqual({ held: true, outcome: { error: failure, text: undefined } });
    await expect(body.readText(64)).rejects.toBe(failure);
    await expect(body.read(64)).rejects.toBe(failure);
  });

  it("refuses a text read ahead past the limit with 413, as readText does", async () => {
    const body = bodyOf("unused");
    body.hold("ü".repeat(40), undefined, 64);
    const { held, outcome } = collected(body);
    expect(held).toBe(true);
    expect(outcome!.error).toBeInstanceOf(PayloadTooLargeError);
    expect(outcome!.error!.message).toBe("Request body is larger than the limit of 64 bytes");
    expect(body.abandoned).toBe(true);
  });

  it("holds nothing unless a text was read ahead", () => {
    expect(collected(bodyOf("{}"))).toEqual({ held: false, outcome: undefined });
  });

  it("cancels a streamed body that a limit stopped it reading, so that the runtime can drop the connection", async () => {
    // Deno kept the connection of a chunked upload refused mid-body open (the body locked to a
    // reader nobody cancelled), and the client waited for its close after the 413.
    let cancelled = false;
    const part = '--b\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nx\r\n';
    const body = new ReadableStream<Uint8Array>({
      // A client still sending parts.
      pull: (controller) => controller.enqueue(new TextEncoder().encode(part)),
      cancel: () => {
        cancelled = true;
      },
    });
    const upload = endpoint({
      params: { files: p.File({ list: true }) },
      returns: JsonResponse,
      handler: (_request, { files }) => new JsonResponse({ count: files.length }),
    });
    const app = createApp({
      routes: [path("/upload", { endpoint: upload, methods: ["POST"] })],
      settings: { LIMITS: { files: 2 } },
    });
    const response = await app.fetch(
      new Request("http://localhost/upload", {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=b" },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect([response.status, await response.json()]).toEqual([
      413,
      { detail: "Too many files: the limit is 2" },
    ]);
    await waitFor("the body to be cancelled", () => (cancelled ? true : undefined));
  });

  it.each([
    ["with its length announced", { "content-length": "100" }],
    ["chunked", {}],
  ])(
    "answers a body whose connection failed mid-read (%s) as a client gone: 400, nothing logged",
    async (_case, length) => {
      // Bun rejects the read of a body whose client left with an AbortError, Deno with BadResource;
      // both reached the 500 fallback, logged as "Unhandled error while answering a request".
      const logger = { error: vi.fn() };
      const person = endpoint({
        params: { body: p.Json(z.object({ name: z.string() })) },
        returns: JsonResponse,
        handler: (_request, { body }) => new JsonResponse(body),
      });
      const app = createApp({ routes: [path("/people", { endpoint: person, methods: ["POST"] })], logger });
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull: (controller) => {
          if (sent) return controller.error(new DOMException("The connection was closed.", "AbortError"));
          sent = true;
          controller.enqueue(new TextEncoder().encode('{"name":"a'));
        },
      });
      const response = await app.fetch(
        new Request("http://localhost/people", {
          method: "POST",
          headers: { "content-type": "application/json", ...length },
          body,
          duplex: "half",
        } as RequestInit),
      );
      expect([response.status, await response.json(), logger.error.mock.calls]).toEqual([
        400,
        { detail: "The client closed the connection before the body was complete" },
        [],
      ]);
    },
  );
});
