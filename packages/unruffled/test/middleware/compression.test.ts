import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import { waitFor } from "process-support";
import { type CompressionOptions, compression, createApp, type Middleware, ValueError } from "unruffled";
import {
  EventStreamResponse,
  FileResponse,
  HttpResponse,
  JsonResponse,
  PlainTextResponse,
} from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { readEvents } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { wireRequest } from "../support/http-request.ts";
import { openRaw } from "../support/raw-http.ts";
import { serve } from "../support/serve.ts";

// 2,000 bytes of JSON: above the default threshold of 1,024.
const ROWS = Array.from({ length: 40 }, (_, id) => ({ id, name: `Student ${id}`, active: id % 2 === 0 }));
const ROWS_JSON = JSON.stringify(ROWS);
const LARGE = "unruffled ".repeat(10_000);

function answering(make: () => HttpResponse) {
  return endpoint({ returns: HttpResponse, handler: make });
}

const routes = [
  path("/rows", { endpoint: answering(() => new JsonResponse(ROWS)) }),
  path("/small", { endpoint: answering(() => new PlainTextResponse("short")) }),
  path("/large", { endpoint: answering(() => new PlainTextResponse(LARGE)) }),
  path("/streamed", {
    endpoint: answering(
      () =>
        new HttpResponse(
          Readable.from(["first line\n", "x".repeat(5_000), "\nlast line\n"]),
          {},
          "text/plain; charset=utf-8",
        ),
    ),
  }),
  path("/encoded", {
    endpoint: answering(
      () =>
        new HttpResponse(ROWS_JSON, { headers: { "content-encoding": "identity-ish" } }, "application/json"),
    ),
  }),
  path("/events", {
    endpoint: answering(() => new HttpResponse(`data: ${ROWS_JSON}\n\n`, {}, "text/event-stream")),
  }),
  path("/image", {
    endpoint: answering(() => new HttpResponse(Buffer.alloc(4_000, 1), {}, "image/png")),
  }),
  path("/no-transform", {
    endpoint: answering(
      () => new JsonResponse(ROWS, { headers: { "cache-control": "public, no-transform" } }),
    ),
  }),
  path("/tagged", {
    endpoint: answering(() => new JsonResponse(ROWS, { headers: { etag: '"v1"' } })),
  }),
];

async function serveCompressed(options?: CompressionOptions) {
  return serve(routes, { middleware: [compression(options)] });
}

describe("compression()", () => {
  it("compresses with gzip when the client accepts it, with the compressed length and Vary", async () => {
    const server = await serveCompressed();
    const answer = await wireRequest(server.url, "GET", "/rows", { "accept-encoding": "gzip" });
    expect([
      answer.status,
      answer.headers["content-encoding"],
      answer.headers["content-length"],
      answer.headers.vary,
      gunzipSync(answer.body).toString(),
    ]).toEqual([200, "gzip", String(answer.body.length), "Accept-Encoding", ROWS_JSON]);
    expect(answer.body.length).toBeLessThan(ROWS_JSON.length / 2);
  });

  it("prefers brotli when the client weighs both alike, and follows the client's q-values", async () => {
    const server = await serveCompressed();
    const alike = await wireRequest(server.url, "GET", "/rows", { "accept-encoding": "gzip, deflate, br" });
    expect([alike.headers["content-encoding"], brotliDecompressSync(alike.body).toString()]).toEqual([
      "br",
      ROWS_JSON,
    ]);
    const weighed = await wireRequest(server.url, "GET", "/rows", {
      "accept-encoding": "br;q=0.5, gzip;q=0.8",
    });
    expect(weighed.headers["content-encoding"]).toBe("gzip");
    const anyOther = await wireRequest(server.url, "GET", "/rows", { "accept-encoding": "br;q=0, *;q=0.1" });
    expect(anyOther.headers["content-encoding"]).toBe("gzip");
  });

  it("sends the body as it is, with Vary, when the client accepts no coding it offers", async () => {
    const server = await serveCompressed();
    for (const accepted of [undefined, "identity", "deflate, zstd", "gzip;q=0, br;q=0"]) {
      const answer = await wireRequest(
        server.url,
        "GET",
        "/rows",
        accepted === undefined ? {} : { "accept-encoding": accepted },
      );
      expect([answer.headers["content-encoding"], answer.headers.vary, answer.body.toString()]).toEqual([
        undefined,
        "Accept-Encoding",
        ROWS_JSON,
      ]);
    }
  });

  it("sends the body as it is, 200, when the client refuses identity but accepts no coding it offers", async () => {
    // RFC 9110 (§12.1) lets a server send this rather than a 406: the client gets its data, as with Fastify.
    const server = await serveCompressed();
    for (const accepted of ["identity;q=0", "*;q=0", "zstd, identity;q=0"]) {
      const answer = await wireRequest(server.url, "GET", "/rows", { "accept-encoding": accepted });
      expect([
        answer.status,
        answer.headers["content-encoding"],
        answer.headers["content-length"],
        answer.headers.vary,
        answer.body.toString(),
      ]).toEqual([200, undefined, String(ROWS_JSON.length), "Accept-Encoding", ROWS_JSON]);
    }
  });

  it("leaves a body under the threshold alone, without Vary", async () => {
    const server = await serveCompressed();
    const answer = await wireRequest(server.url, "GET", "/small", { "accept-encoding": "gzip" });
    expect([answer.headers["content-encoding"], answer.headers.vary, answer.body.toString()]).toEqual([
      undefined,
      undefined,
      "short",
    ]);
    const lowered = await serveCompressed({ threshold: 0 });
    const compressed = await wireRequest(lowered.url, "GET", "/small", { "accept-encoding": "gzip" });
    expect(gunzipSync(compressed.body).toString()).toBe("short");
  });

  it("compresses a streamed body as it flows, chunked", async () => {
    const server = await serveCompressed();
    const answer = await wireRequest(server.url, "GET", "/streamed", { "accept-encoding": "gzip" });
    expect([
      answer.headers["content-encoding"],
      answer.headers["content-length"],
      answer.headers["transfer-encoding"],
      gunzipSync(answer.body).toString(),
    ]).toEqual(["gzip", undefined, "chunked", `first line\n${"x".repeat(5_000)}\nlast line\n`]);
  });

  it("leaves a streamed body that states a length below the threshold as it is (a FileResponse of a small file)", async () => {
    const folder = await mkdtemp(join(tmpdir(), "compression-"));
    await writeFile(join(folder, "small.txt"), "twenty bytes of text");
    await writeFile(join(folder, "large.txt"), LARGE);
    const sendFile = endpoint({
      params: { name: p.Path(z.string()) },
      returns: FileResponse,
      handler: (_request, { name }) => new FileResponse(join(folder, name)),
    });
    const server = await serve([path("/files/{name}", { endpoint: sendFile })], {
      middleware: [compression()],
    });
    try {
      const small = await wireRequest(server.url, "GET", "/files/small.txt", { "accept-encoding": "gzip" });
      const large = await wireRequest(server.url, "GET", "/files/large.txt", { "accept-encoding": "gzip" });
      expect([
        small.headers["content-encoding"],
        small.headers["content-length"],
        small.body.toString(),
      ]).toEqual([undefined, "20", "twenty bytes of text"]);
      expect([large.headers["content-encoding"], gunzipSync(large.body).toString()]).toEqual(["gzip", LARGE]);
    } finally {
      await rm(folder, { recursive: true });
    }
  });

  it("compresses a large body in zlib's thread pool, with the same result", async () => {
    const server = await serveCompressed();
    const answer = await wireRequest(server.url, "GET", "/large", { "accept-encoding": "br" });
    expect([
      answer.headers["content-encoding"],
      brotliDecompressSync(answer.body).toString() === LARGE,
    ]).toEqual(["br", true]);
  });

  it("never compresses an encoded body, an event stream, an image, or a no-transform answer", async () => {
    const server = await serveCompressed();
    for (const where of ["/encoded", "/events", "/image", "/no-transform"]) {
      const answer = await wireRequest(server.url, "GET", where, { "accept-encoding": "gzip, br" });
      expect([where, answer.headers.vary, answer.headers["content-encoding"]]).toEqual([
        where,
        undefined,
        where === "/encoded" ? "identity-ish" : undefined,
      ]);
    }
  });

  it("sends a live event stream uncompressed, each event as soon as it is made", async () => {
    // Each event is made only once the client has read the one before: a compressor that held
    // the bytes back would leave the client waiting for the first event, and the test would time out.
    let read: () => void = () => undefined;
    async function* events() {
      for (let n = 1; n <= 3; n++) {
        const next = new Promise<void>((resolve) => {
          read = resolve;
        });
        yield { data: { n, text: "x".repeat(2_000) } };
        await next;
      }
    }
    const live = endpoint({ returns: EventStreamResponse, handler: () => new EventStreamResponse(events()) });
    const server = await serve([path("/live", { endpoint: live })], { middleware: [compression()] });
    const response = await fetch(`${server.url}/live`, { headers: { "accept-encoding": "gzip, br" } });
    expect([response.headers.get("content-encoding"), response.headers.get("vary")]).toEqual([null, null]);
    const seen: number[] = [];
    for await (const event of readEvents<{ n: number; text: string }>(response.body!)) {
      seen.push(event.data.n);
      read();
    }
    expect(seen).toEqual([1, 2, 3]);
  });

  it("answers HEAD with the headers of the uncompressed answer", async () => {
    const server = await serveCompressed();
    const answer = await wireRequest(server.url, "HEAD", "/rows", { "accept-encoding": "gzip" });
    expect([answer.headers["content-encoding"], answer.headers["content-length"]]).toEqual([
      undefined,
      String(ROWS_JSON.length),
    ]);
  });

  it("turns a strong ETag weak, since the compressed bytes differ", async () => {
    const server = await serveCompressed();
    const answer = await wireRequest(server.url, "GET", "/tagged", { "accept-encoding": "gzip" });
    expect(answer.headers.etag).toBe('W/"v1"');
  });

  it("offers only the codings it is given", async () => {
    const server = await serveCompressed({ encodings: ["gzip"] });
    const answer = await wireRequest(server.url, "GET", "/rows", { "accept-encoding": "br" });
    expect(answer.headers["content-encoding"]).toBeUndefined();
  });

  it("keeps request.afterResponse working", async () => {
    const ran: string[] = [];
    const app = createApp({
      middleware: [compression()],
      routes: [
        path("/rows", {
          endpoint: endpoint({
            returns: JsonResponse,
            handler: (request) => {
              request.afterResponse(() => {
                ran.push("after");
              });
              return new JsonResponse(ROWS);
            },
          }),
        }),
      ],
    });
    const response = await app.fetch(
      new Request("http://localhost/rows", { headers: { "accept-encoding": "gzip" } }),
    );
    const body = gunzipSync(Buffer.from(await response.arrayBuffer())).toString();
    expect([response.headers.get("content-encoding"), body]).toEqual(["gzip", ROWS_JSON]);
    await app.settled();
    expect(ran).toEqual(["after"]);
  });

  it("refuses options that cannot work when the app is built", () => {
    expect(() => compression({ threshold: -5 })).toThrow(
      new ValueError("compression(): threshold must be a whole number of bytes, got -5."),
    );
    expect(() => compression({ encodings: ["deflate" as "gzip"] })).toThrow(
      new ValueError('compression(): encodings must list "br" and/or "gzip", got ["deflate"].'),
    );
  });
});

describe("audit: compression() defaults and exceptions from docs/middleware-and-lifecycle.md", () => {
  it("compresses with gzip level 6 and brotli quality 4 by default", async () => {
    const server = await serveCompressed();
    const gzipped = await wireRequest(server.url, "GET", "/rows", { "accept-encoding": "gzip" });
    const brotlied = await wireRequest(server.url, "GET", "/rows", { "accept-encoding": "br" });
    const quality = (level: number) => ({ params: { [constants.BROTLI_PARAM_QUALITY]: level } });
    // The levels make different bytes for this body, so equality names the level used.
    expect(gzipSync(ROWS_JSON, { level: 6 })).not.toEqual(gzipSync(ROWS_JSON, { level: 1 }));
    expect(brotliCompressSync(ROWS_JSON, quality(4))).not.toEqual(brotliCompressSync(ROWS_JSON, quality(11)));
    expect([gzipped.headers["content-encoding"], brotlied.headers["content-encoding"]]).toEqual([
      "gzip",
      "br",
    ]);
    expect(gzipped.body).toEqual(gzipSync(ROWS_JSON, { level: 6 }));
    expect(brotlied.body).toEqual(brotliCompressSync(ROWS_JSON, quality(4)));
  });

  it("never compresses a partial answer (206), with or without Content-Range", async () => {
    const partial = (headers: Record<string, string>) =>
      answering(() => new HttpResponse(ROWS_JSON, { status: 206, headers }, "application/json"));
    const server = await serve(
      [
        path("/ranged", { endpoint: partial({ "content-range": `bytes 0-${ROWS_JSON.length - 1}/9999` }) }),
        path("/partial", { endpoint: partial({}) }),
      ],
      { middleware: [compression()] },
    );
    for (const where of ["/ranged", "/partial"]) {
      const answer = await wireRequest(server.url, "GET", where, { "accept-encoding": "gzip, br" });
      expect([where, answer.status, answer.headers["content-encoding"], answer.body.toString()]).toEqual([
        where,
        206,
        undefined,
        ROWS_JSON,
      ]);
    }
  });

  it("counts an entry with a malformed q-value as not sent", async () => {
    const server = await serveCompressed();
    const encodingFor = async (accepted: string) =>
      (await wireRequest(server.url, "GET", "/rows", { "accept-encoding": accepted })).headers[
        "content-encoding"
      ];
    expect([
      await encodingFor("gzip;q=high"),
      await encodingFor("gzip;q=1.5, br;q=0.1"),
      await encodingFor("br;q=0.1234, gzip;q=0.2"),
      await encodingFor("br;q=-1"),
    ]).toEqual([undefined, "br", "gzip", undefined]);
  });
});

describe("audit: compression()'s threshold and types", () => {
  it("counts the threshold in bytes: 1,023 bytes go as they are, without Vary; 1,024 are compressed", async () => {
    const below = `${"é".repeat(511)}a`; // 512 characters, 1,023 bytes of UTF-8
    const at = "é".repeat(512); // 512 characters, 1,024 bytes
    const server = await serve(
      [
        path("/below", { endpoint: answering(() => new PlainTextResponse(below)) }),
        path("/at", { endpoint: answering(() => new PlainTextResponse(at)) }),
      ],
      { middleware: [compression()] },
    );
    const sent = await wireRequest(server.url, "GET", "/below", { "accept-encoding": "gzip" });
    const compressed = await wireRequest(server.url, "GET", "/at", { "accept-encoding": "gzip" });
    expect([sent.headers["content-encoding"], sent.headers.vary, sent.body.toString()]).toEqual([
      undefined,
      undefined,
      below,
    ]);
    expect([
      compressed.headers["content-encoding"],
      compressed.headers.vary,
      gunzipSync(compressed.body).toString(),
    ]).toEqual(["gzip", "Accept-Encoding", at]);
  });

  it("compresses the content types `types` names, and never an event stream even when they include it", async () => {
    const server = await serve(routes, { middleware: [compression({ types: /^(?:image\/png|text\/)/ })] });
    const image = await wireRequest(server.url, "GET", "/image", { "accept-encoding": "gzip" });
    const events = await wireRequest(server.url, "GET", "/events", { "accept-encoding": "gzip" });
    const json = await wireRequest(server.url, "GET", "/rows", { "accept-encoding": "gzip" });
    expect([
      image.headers["content-encoding"],
      gunzipSync(image.body).equals(Buffer.alloc(4_000, 1)),
      events.headers["content-encoding"],
      json.headers["content-encoding"],
    ]).toEqual(["gzip", true, undefined, undefined]);
  });
});

describe("audit-b: compression() and answers it must leave alone, or stop", () => {
  it("never compresses a 204 or a 304, whatever body and type the handler gave", async () => {
    const server = await serve(
      [
        path("/no-content", {
          endpoint: answering(() => new HttpResponse(ROWS_JSON, { status: 204 }, "application/json")),
        }),
        path("/not-modified", {
          endpoint: answering(
            () => new HttpResponse(ROWS_JSON, { status: 304, headers: { etag: '"v1"' } }, "application/json"),
          ),
        }),
      ],
      { middleware: [compression()] },
    );
    for (const [where, status] of [
      ["/no-content", 204],
      ["/not-modified", 304],
    ] as const) {
      const answer = await wireRequest(server.url, "GET", where, { "accept-encoding": "gzip, br" });
      expect([where, answer.status, answer.headers["content-encoding"], answer.headers.vary]).toEqual([
        where,
        status,
        undefined,
        undefined,
      ]);
    }
  });

  it("destroys a streamed body's source when the client goes away mid-answer, and runs the work after it", async () => {
    // A source that never ends: only the client leaving can stop it, through return() at a yield.
    const tasks: string[] = [];
    let sourceClosed!: () => void;
    const closed = new Promise<void>((resolve) => {
      sourceClosed = resolve;
    });
    async function* endless() {
      try {
        for (;;) {
          yield randomBytes(4_096).toString("hex");
          await new Promise((resolve) => setImmediate(resolve));
        }
      } finally {
        sourceClosed();
      }
    }
    const server = await serve(
      [
        path("/endless", {
          endpoint: endpoint({
            returns: HttpResponse,
            handler(request) {
              request.afterResponse(() => void tasks.push(`client left: ${request.signal.aborted}`));
              return new HttpResponse(Readable.from(endless()), {}, "text/plain");
            },
          }),
        }),
      ],
      { middleware: [compression()] },
    );
    const exchange = await openRaw(server.port);
    await exchange.write("GET /endless HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
    const head = await exchange.waitFor("\r\n\r\n");
    expect(head).toContain("\r\ncontent-encoding: gzip\r\n");
    exchange.socket.destroy();
    // Fails by timing out (vitest's own limit) if the source is left running after the client left.
    await closed;
    await waitFor("the task queued by the handler", () => tasks[0]);
    expect(tasks).toEqual(["client left: true"]);
  });

  it("hands the middleware outside it an HttpResponse that keeps the status, headers and logFields", async () => {
    const seen: unknown[] = [];
    const outside: Middleware = async (request, next) => {
      const response = await next(request);
      seen.push(
        response instanceof JsonResponse,
        response instanceof HttpResponse,
        response.status,
        response.headers["x-total"],
        response.headers["content-encoding"],
        response.logFields,
      );
      return response;
    };
    const records: Record<string, unknown>[] = [];
    const server = await serve(
      [
        path("/created", {
          endpoint: answering(() => {
            const response = new JsonResponse(ROWS, { status: 201, headers: { "x-total": "40" } });
            response.logFields = { code: 7 };
            return response;
          }),
        }),
      ],
      {
        middleware: [outside, compression()],
        settings: {
          LOGGING: {
            level: "info",
            destination: { write: (line: string) => void records.push(JSON.parse(line)) },
          },
        },
      },
    );
    const answer = await wireRequest(server.url, "GET", "/created", { "accept-encoding": "gzip" });
    expect([
      answer.status,
      answer.headers["x-total"],
      JSON.parse(gunzipSync(answer.body).toString()),
    ]).toEqual([201, "40", ROWS]);
    expect(seen).toEqual([false, true, 201, "40", "gzip", { code: 7 }]);
    await waitFor("the access record", () => records[0]);
    expect([records[0]!.status, records[0]!.code]).toEqual([201, 7]);
  });
});
