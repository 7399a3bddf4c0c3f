// StreamingResponse (docs/responses.md, "Streaming a body"): FastAPI's StreamingResponse. A source of
// chunks sent as the client takes them, closed when the client leaves, its failures answered or logged.

import { randomBytes } from "node:crypto";
import { type IncomingMessage, request, type Server } from "node:http";
import { Readable } from "node:stream";
import { createGunzip, gunzipSync } from "node:zlib";
import { waitFor } from "process-support";
import {
  type App,
  compression,
  createApp,
  exceptionHandler,
  type Middleware,
  NotFoundError,
} from "unruffled";
import { type HttpRequest, PlainTextResponse, StreamingResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { afterAll, describe, expect, it, vi } from "vitest";

const apps: App[] = [];
afterAll(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close({ timeout: 1_000 })));
});

const servers = new Map<number, Server>();

/** Serves an app on a loopback port; closed after the file. */
async function listening(app: App): Promise<number> {
  apps.push(app);
  const server = await app.listen({ port: 0 });
  const port = app.address()!.port;
  servers.set(port, server);
  return port;
}

/** How many connections a server of this file holds open. */
function openConnections(port: number): Promise<number> {
  return new Promise((resolve, reject) =>
    servers.get(port)!.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

/** A GET whose answer is read as it arrives; `close()` hangs up, as a browser tab closing would. */
function open(port: number, target: string, headers: Record<string, string> = {}) {
  return new Promise<{ response: IncomingMessage; close: () => void }>((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, path: target, headers, agent: false }, (response) =>
      resolve({ response, close: () => outgoing.destroy() }),
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** Everything a response sends, and whether it ended cleanly or was cut. */
function readAll(response: IncomingMessage): Promise<{ body: Buffer; complete: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("end", () => resolve({ body: Buffer.concat(chunks), complete: response.complete }));
    response.on("error", () => resolve({ body: Buffer.concat(chunks), complete: false }));
    response.on("aborted", () => resolve({ body: Buffer.concat(chunks), complete: false }));
  });
}

const served = (handler: (request: HttpRequest) => StreamingResponse, options = {}) =>
  listening(
    createApp({
      ...options,
      routes: [path("/s", { endpoint: endpoint({ returns: StreamingResponse, handler }) })],
    }),
  );

async function* words() {
  yield "Zoë ";
  yield new TextEncoder().encode("and ");
  yield "";
  yield "Ann";
}

describe("StreamingResponse", () => {
  it("sends an async generator's strings and bytes in order, chunked, as application/octet-stream", async () => {
    const port = await served(() => new StreamingResponse(words()));
    const { response } = await open(port, "/s");
    const { body, complete } = await readAll(response);
    expect([
      response.statusCode,
      response.headers["content-type"],
      response.headers["transfer-encoding"],
      response.headers["content-length"],
      body.toString(),
      complete,
    ]).toEqual([200, "application/octet-stream", "chunked", undefined, "Zoë and Ann", true]);
  });

  it("takes a status, headers and a content type", async () => {
    const port = await served(
      () =>
        new StreamingResponse(["a,b\n", "1,2\n"], {
          status: 201,
          headers: { "X-Rows": "1" },
          contentType: "text/csv",
        }),
    );
    const { response } = await open(port, "/s");
    const { body } = await readAll(response);
    expect([
      response.statusCode,
      response.headers["content-type"],
      response.headers["x-rows"],
      body.toString(),
    ]).toEqual([201, "text/csv", "1", "a,b\n1,2\n"]);
  });

  it("sends a web ReadableStream and a Node Readable", async () => {
    const web = () =>
      new StreamingResponse(
        new ReadableStream<string>({
          start(controller) {
            controller.enqueue("from ");
            controller.enqueue("web");
            controller.close();
          },
        }),
      );
    const node = () => new StreamingResponse(Readable.from([Buffer.from("from "), Buffer.from("node")]));
    const webPort = await served(web);
    const nodePort = await served(node);
    expect([
      (await readAll((await open(webPort, "/s")).response)).body.toString(),
      (await readAll((await open(nodePort, "/s")).response)).body.toString(),
    ]).toEqual(["from web", "from node"]);
  });

  it("is read by the test client in process, through app.fetch", async () => {
    const app = createApp({
      routes: [
        path("/s", {
          endpoint: endpoint({ returns: StreamingResponse, handler: () => new StreamingResponse(words()) }),
        }),
      ],
    });
    const response = await testClient(app).get("/s");
    expect([response.status, response.text]).toEqual([200, "Zoë and Ann"]);
  });

  it("pulls chunks only as fast as the client reads them (back-pressure)", async () => {
    let pulled = 0;
    const big = "x".repeat(64 * 1024);
    const port = await served((request) => {
      async function* flood() {
        while (!request.signal.aborted) {
          pulled++;
          yield big;
        }
      }
      return new StreamingResponse(flood());
    });
    const { response, close } = await open(port, "/s");
    response.pause();
    const stalled = await waitFor(
      "the server to stop pulling",
      stableValue(() => pulled),
      { timeoutMs: 15_000 },
    );
    // Socket buffers and the stream's own: a few megabytes, never the endless source.
    expect(stalled * big.length).toBeLessThan(32 * 1024 * 1024);
    let read = 0;
    for await (const chunk of response) {
      read += (chunk as Buffer).length;
      if (read > (stalled + 50) * big.length) break;
    }
    expect(pulled).toBeGreaterThan(stalled);
    close();
  });

  it("runs the generator's finally when the client leaves mid-stream, for every one of 100 clients", async () => {
    const counts = { opened: 0, closed: 0 };
    const port = await served(() => {
      async function* endless() {
        counts.opened++;
        try {
          for (;;) yield "tick\n";
        } finally {
          counts.closed++;
        }
      }
      return new StreamingResponse(endless());
    });
    for (let batch = 0; batch < 4; batch++) {
      const clients = await Promise.all(Array.from({ length: 25 }, () => open(port, "/s")));
      await Promise.all(
        clients.map(({ response }) => new Promise((resolve) => response.once("data", resolve))),
      );
      for (const client of clients) client.close();
    }
    await waitFor("every generator to close", () => (counts.closed === 100 ? true : undefined));
    await waitFor("every connection to close", async () =>
      (await openConnections(port)) === 0 ? true : undefined,
    );
    expect(counts).toEqual({ opened: 100, closed: 100 });
  });

  it("cancels a web ReadableStream when the client leaves", async () => {
    let cancelled: unknown = "not cancelled";
    const port = await served(
      () =>
        new StreamingResponse(
          new ReadableStream<string>({
            pull(controller) {
              controller.enqueue("tick\n");
            },
            cancel(reason) {
              cancelled = reason;
            },
          }),
        ),
    );
    const { response, close } = await open(port, "/s");
    await new Promise((resolve) => response.once("data", resolve));
    close();
    await waitFor("the stream to be cancelled", () => (cancelled !== "not cancelled" ? true : undefined));
  });

  it("answers 500 in the app's format, logged, for a source that fails before its first chunk", async () => {
    const logger = { error: vi.fn() };
    let closed = false;
    const port = await served(
      () => {
        async function* failing() {
          try {
            if (closed === false) throw new Error("no such export");
            yield "never sent";
          } finally {
            closed = true;
          }
        }
        return new StreamingResponse(failing());
      },
      { logger },
    );
    const { response } = await open(port, "/s");
    const { body } = await readAll(response);
    expect([response.statusCode, JSON.parse(body.toString()), closed]).toEqual([
      500,
      { detail: "Internal Server Error" },
      true,
    ]);
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ err: new Error("no such export") }),
      expect.any(String),
    );
  });

  it("cuts the connection after what was sent, and logs, for a source that fails mid-stream", async () => {
    const logger = { error: vi.fn() };
    const port = await served(
      () => {
        async function* failing() {
          yield "row 1\n";
          throw new Error("the database went away");
        }
        return new StreamingResponse(failing());
      },
      { logger },
    );
    const { response } = await open(port, "/s");
    const { body, complete } = await readAll(response);
    expect([response.statusCode, body.toString(), complete]).toEqual([200, "row 1\n", false]);
    await waitFor("the failure to be logged", () => (logger.error.mock.calls.length > 0 ? true : undefined));
    expect(logger.error.mock.calls).toEqual([
      [
        expect.objectContaining({ err: new Error("the database went away"), method: "GET", path: "/s" }),
        "A streamed body failed after its answer began; its connection was closed",
      ],
    ]);
  });

  it("refuses a chunk that is neither text nor bytes: a 500 first, a cut connection later", async () => {
    const logger = { error: vi.fn() };
    const first = await served(() => new StreamingResponse([42 as unknown as string]), { logger });
    const later = await served(() => new StreamingResponse(["ok\n", { a: 1 } as unknown as string]), {
      logger,
    });
    const refused = await readAll((await open(first, "/s")).response);
    const cut = await readAll((await open(later, "/s")).response);
    expect([refused.body.toString(), cut.body.toString(), cut.complete]).toEqual([
      '{"detail":"Internal Server Error"}',
      "ok\n",
      false,
    ]);
    await waitFor("both failures to be logged", () =>
      logger.error.mock.calls.length === 2 ? true : undefined,
    );
    expect(logger.error.mock.calls.map(([fields]) => (fields as { err: Error }).err.message)).toEqual([
      "A StreamingResponse's source yields strings or bytes (Uint8Array), got number",
      "A StreamingResponse's source yields strings or bytes (Uint8Array), got object",
    ]);
  });

  it("refuses a source that is not one, in the handler", () => {
    expect(() => new StreamingResponse(42 as never)).toThrow(
      new TypeError(
        "StreamingResponse takes an async iterable or iterable of strings or bytes, a ReadableStream or a Readable",
      ),
    );
  });

  it("is compressed by the compression middleware as it flows", async () => {
    const port = await served(
      () => {
        async function* lines() {
          for (let n = 0; n < 2000; n++) yield `line ${n} of a long text body\n`;
        }
        return new StreamingResponse(lines(), { contentType: "text/plain" });
      },
      { middleware: [compression()] },
    );
    const { response } = await open(port, "/s", { "accept-encoding": "gzip" });
    const { body } = await readAll(response);
    const text = gunzipSync(body).toString();
    expect([
      response.headers["content-encoding"],
      response.headers["transfer-encoding"],
      text.split("\n").length,
    ]).toEqual(["gzip", "chunked", 2001]);
    expect(body.length).toBeLessThan(text.length / 4);
  });

  it("sends compressed bytes before its source has ended", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const port = await served(
      () => {
        async function* rows() {
          // Hex of random bytes compresses to about half: some 100 kB of output before the wait.
          for (let n = 0; n < 200; n++) yield `${randomBytes(512).toString("hex")}\n`;
          await released;
          yield "last\n";
        }
        return new StreamingResponse(rows(), { contentType: "text/plain" });
      },
      { middleware: [compression()] },
    );
    const { response } = await open(port, "/s", { "accept-encoding": "gzip" });
    // Counted after decompression: the gzip header alone goes out at once, and proves nothing.
    const text = response.pipe(createGunzip());
    let decoded = "";
    text.on("data", (chunk: Buffer) => {
      decoded += chunk.toString();
    });
    await waitFor("rows decoded while the source waits", () => (decoded.length > 0 ? true : undefined));
    release();
    await new Promise((resolve) => text.once("end", resolve));
    expect([response.headers["content-encoding"], decoded.split("\n").length]).toEqual(["gzip", 202]);
  });

  it("closes its source on a HEAD request, sending the head only", async () => {
    let closed = false;
    const port = await served(() => {
      async function* endless() {
        try {
          for (;;) yield "tick\n";
        } finally {
          closed = true;
        }
      }
      return new StreamingResponse(endless());
    });
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const outgoing = request(
        { host: "127.0.0.1", port, path: "/s", method: "HEAD", agent: false },
        (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode));
        },
      );
      outgoing.on("error", reject);
      outgoing.end();
    });
    expect(status).toBe(200);
    await waitFor("the source to close", () => (closed ? true : undefined));
  });
});

/** Resolves to a counter's value once it stops moving (five reads in a row). */
describe("StreamingResponse outside an endpoint", () => {
  const plain = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("endpoint") });
  const streamedRoute = path("/s", {
    endpoint: endpoint({
      returns: StreamingResponse,
      handler: () => new StreamingResponse(failingAfter("row 1\n")),
    }),
  });

  /** A source that sends `first` (if any), then throws: before its first chunk when `first` is undefined. */
  async function* failingAfter(first?: string) {
    if (first !== undefined) yield first;
    throw new Error("the database went away");
  }

  it("answers 500 in the app's format, logged, for a middleware's or an exception handler's source that fails before its first chunk", async () => {
    const logger = { error: vi.fn() };
    const maintenance: Middleware = () => new StreamingResponse(failingAfter());
    const notFoundPage = exceptionHandler(NotFoundError, () => new StreamingResponse(failingAfter()));
    const fromMiddleware = await listening(
      createApp({ routes: [path("/p", { endpoint: plain })], middleware: [maintenance], logger }),
    );
    const fromHandler = await listening(createApp({ routes: [], exceptionHandlers: [notFoundPage], logger }));
    const answers = [];
    for (const [port, target] of [
      [fromMiddleware, "/p"],
      [fromHandler, "/nowhere"],
    ] as const) {
      const { response } = await open(port, target);
      answers.push([response.statusCode, (await readAll(response)).body.toString()]);
    }
    expect(answers).toEqual([
      [500, '{"detail":"Internal Server Error"}'],
      [500, '{"detail":"Internal Server Error"}'],
    ]);
    expect(logger.error.mock.calls.map(([fields]) => (fields as { err: Error }).err)).toEqual([
      new Error("the database went away"),
      new Error("the database went away"),
    ]);
  });

  it("cuts the connection after what was sent, and logs, for a middleware's or an exception handler's source that fails mid-stream", async () => {
    const logger = { error: vi.fn() };
    const maintenance: Middleware = () => new StreamingResponse(failingAfter("row 1\n"));
    const notFoundPage = exceptionHandler(
      NotFoundError,
      () => new StreamingResponse(failingAfter("row 1\n"), { status: 404 }),
    );
    const fromMiddleware = await listening(
      createApp({ routes: [path("/p", { endpoint: plain })], middleware: [maintenance], logger }),
    );
    const fromHandler = await listening(createApp({ routes: [], exceptionHandlers: [notFoundPage], logger }));
    const answers = [];
    for (const [port, target] of [
      [fromMiddleware, "/p"],
      [fromHandler, "/nowhere"],
    ] as const) {
      const { response } = await open(port, target);
      const { body, complete } = await readAll(response);
      answers.push([response.statusCode, body.toString(), complete]);
    }
    expect(answers).toEqual([
      [200, "row 1\n", false],
      [404, "row 1\n", false],
    ]);
    await waitFor("both failures to be logged", () =>
      logger.error.mock.calls.length === 2 ? true : undefined,
    );
    expect(logger.error.mock.calls).toEqual([
      [
        expect.objectContaining({ err: new Error("the database went away"), path: "/p" }),
        "A streamed body failed after its answer began; its connection was closed",
      ],
      [
        expect.objectContaining({ err: new Error("the database went away"), path: "/nowhere" }),
        "A streamed body failed after its answer began; its connection was closed",
      ],
    ]);
  });

  it("is logged once when it fails after passing through middleware from its endpoint", async () => {
    const logger = { error: vi.fn() };
    const passing: Middleware = async (request, next) => next(request);
    const port = await listening(
      createApp({
        routes: [streamedRoute, path("/p", { endpoint: plain })],
        middleware: [passing, passing],
        logger,
      }),
    );
    const { response } = await open(port, "/s");
    const { body, complete } = await readAll(response);
    expect([response.statusCode, body.toString(), complete]).toEqual([200, "row 1\n", false]);
    await waitFor("the failure to be logged", () => (logger.error.mock.calls.length > 0 ? true : undefined));
    // Another request answered in full after it: time enough for a second record to show.
    const { response: after } = await open(port, "/p");
    expect((await readAll(after)).body.toString()).toBe("endpoint");
    expect(logger.error.mock.calls).toEqual([
      [
        expect.objectContaining({ err: new Error("the database went away"), path: "/s" }),
        "A streamed body failed after its answer began; its connection was closed",
      ],
    ]);
  });
});

function stableValue(read: () => number): () => number | undefined {
  let last = -1;
  let same = 0;
  return () => {
    const value = read();
    same = value === last ? same + 1 : 0;
    last = value;
    return same >= 5 && value > 0 ? value : undefined;
  };
}
