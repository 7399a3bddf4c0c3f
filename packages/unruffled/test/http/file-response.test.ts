import { mkdir, mkdtemp, readdir, readlink, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, exceptionHandler, type Middleware, NotFoundError } from "unruffled";
import { FileResponse, type FileResponseInit } from "unruffled/http";
import { generateOpenApi } from "unruffled/openapi";
import { endpoint, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { openRaw, statusOf } from "../support/raw-http.ts";
import { serve } from "../support/serve.ts";

// Every file here was last modified at this second: its headers are exact.
const MODIFIED = new Date("2026-01-02T03:04:05Z");
const LAST_MODIFIED = "Fri, 02 Jan 2026 03:04:05 GMT";
const HELLO = "Hello, file!\n"; // 13 bytes
const HELLO_ETAG = `"d-${MODIFIED.getTime().toString(16)}"`;
const BIG_SIZE = 16 * 1024 * 1024;

let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "file-response-"));
  await writeFile(at("hello.txt"), HELLO);
  await writeFile(at("digits"), "0123456789");
  await writeFile(at("style.css"), "body{}");
  await writeFile(at("logo.png"), new Uint8Array([137, 80, 78, 71]));
  await writeFile(at("empty.txt"), "");
  await writeFile(at("thousand.txt"), "0123456789".repeat(100));
  await writeFile(at("big.bin"), new Uint8Array(BIG_SIZE).fill(7));
  await mkdir(at("folder"));
  for (const name of [
    "hello.txt",
    "digits",
    "style.css",
    "logo.png",
    "empty.txt",
    "thousand.txt",
    "big.bin",
  ]) {
    await utimes(at(name), MODIFIED, MODIFIED);
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An endpoint that answers with the file named by `?name=`, with `init`. */
function fileEndpoint(init: FileResponseInit = {}) {
  return endpoint({
    params: { name: p.Query(z.string()) },
    returns: FileResponse,
    handler: (_request, { name }) => new FileResponse(at(name), init),
  });
}

const quietLogger = { error: vi.fn() };

async function serveFiles(init: FileResponseInit = {}) {
  return serve([path("/file", { endpoint: fileEndpoint(init) })], {
    settings: { DEBUG: true },
    logger: quietLogger,
  });
}

/** The headers of a response as a plain object, without the ones every answer has. */
function headersOf(response: Response): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of response.headers) {
    if (!["date", "connection", "keep-alive", "x-request-id"].includes(name)) result[name] = value;
  }
  return result;
}

describe("FileResponse", () => {
  it("answers with the file's bytes, its type, length, last-modified, etag and accept-ranges", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=hello.txt");
    expect(response.status).toBe(200);
    expect(headersOf(response)).toEqual({
      "content-type": "text/plain; charset=utf-8",
      "content-length": "13",
      "last-modified": LAST_MODIFIED,
      etag: HELLO_ETAG,
      "accept-ranges": "bytes",
    });
    expect(await response.text()).toBe(HELLO);
  });

  it("guesses the content type from the extension, application/octet-stream when unknown", async () => {
    const server = await serveFiles();
    const typeOf = async (name: string) => {
      const response = await server.fetch(`/file?name=${name}`);
      await response.arrayBuffer();
      return response.headers.get("content-type");
    };
    expect(await typeOf("style.css")).toBe("text/css; charset=utf-8");
    expect(await typeOf("logo.png")).toBe("image/png");
    expect(await typeOf("digits")).toBe("application/octet-stream");
  });

  it("takes the content type given over the guessed one", async () => {
    const server = await serveFiles({ contentType: "text/x-digits" });
    const response = await server.fetch("/file?name=digits");
    expect(response.headers.get("content-type")).toBe("text/x-digits");
    expect(await response.text()).toBe("0123456789");
  });

  it("names an attachment with filename, its type guessed from that name", async () => {
    const server = await serveFiles({ filename: "report 2026.txt" });
    const response = await server.fetch("/file?name=digits");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="report 2026.txt"');
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    await response.arrayBuffer();
  });

  it("adds filename* (RFC 5987) for a name beyond ASCII, beside an ASCII stand-in", async () => {
    const server = await serveFiles({ filename: "résumé (1).txt" });
    const response = await server.fetch("/file?name=digits");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="r_sum_ (1).txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.txt`,
    );
    await response.arrayBuffer();
  });

  it("escapes quotes and backslashes in the file name", async () => {
    const server = await serveFiles({ filename: 'say "hi"\\.txt' });
    const response = await server.fetch("/file?name=digits");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="say \\"hi\\"\\\\.txt"');
    await response.arrayBuffer();
  });

  it("says inline with disposition: inline", async () => {
    const server = await serveFiles({ filename: "a.txt", disposition: "inline" });
    const response = await server.fetch("/file?name=digits");
    expect(response.headers.get("content-disposition")).toBe('inline; filename="a.txt"');
    await response.arrayBuffer();
  });

  it("streams a large file whole", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=big.bin");
    expect(response.headers.get("content-length")).toBe(String(BIG_SIZE));
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.length).toBe(BIG_SIZE);
    expect(bytes.every((byte) => byte === 7)).toBe(true);
  });

  it("answers an empty file with content-length 0", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=empty.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe("0");
    expect(await response.text()).toBe("");
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=hello.txt", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(headersOf(response)).toEqual({
      "content-type": "text/plain; charset=utf-8",
      "content-length": "13",
      "last-modified": LAST_MODIFIED,
      etag: HELLO_ETAG,
      "accept-ranges": "bytes",
    });
    expect(await response.text()).toBe("");
  });

  it("answers the same through the test client", async () => {
    const app = createApp({ routes: [path("/file", { endpoint: fileEndpoint() })] });
    const response = await testClient(app).get("/file", { query: { name: "hello.txt" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe(HELLO_ETAG);
    expect(response.headers.get("content-length")).toBe("13");
    expect(response.text).toBe(HELLO);
  });

  it("refuses a path that is empty or holds a NUL byte when the response is built", () => {
    expect(() => new FileResponse("")).toThrow(
      new TypeError('FileResponse needs the path of a file, got ""'),
    );
    expect(() => new FileResponse("a\0b")).toThrow(
      new TypeError('FileResponse needs the path of a file, got "a\\u0000b"'),
    );
  });

  it("answers a missing file as the handler's error: a 500 naming the path", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=missing.txt");
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe(`FileResponse: there is no file at ${JSON.stringify(at("missing.txt"))}`);
  });

  it("answers a directory as the handler's error: a 500 saying it is not a file", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=folder");
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe(
      `FileResponse: ${JSON.stringify(at("folder"))} is not a file (a directory or a device)`,
    );
  });

  it("cuts the connection when the file ends before the length it had (it shrank while sent)", async () => {
    // The stat given says 20 bytes; the file holds 10: as if it was truncated after it was looked at.
    const stat = { size: 20, mtimeMs: MODIFIED.getTime(), isFile: () => true };
    const shrunk = endpoint({
      returns: FileResponse,
      handler: () => new FileResponse(at("digits"), { stat }),
    });
    const server = await serve([path("/shrunk", { endpoint: shrunk })], { logger: quietLogger });
    const raw = await openRaw(server.port);
    await raw.write("GET /shrunk HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
    await raw.waitFor("0123456789");
    // Were the connection kept, this request's answer would be read as the missing 10 bytes.
    await raw.write("GET /shrunk HTTP/1.1\r\nHost: x\r\n\r\n");
    const received = await raw.closed();
    expect(statusOf(received)).toBe(200);
    expect(received).toContain("content-length: 20\r\n");
    expect(received.endsWith("\r\n\r\n0123456789")).toBe(true);
  });

  it("documents returns: FileResponse as bytes of any type", () => {
    const app = createApp({ routes: [path("/file", { endpoint: fileEndpoint() })] });
    const operation = generateOpenApi(app).paths["/file"]!.get!;
    expect(operation.responses["200"]).toEqual({
      description: "Successful Response",
      content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
    });
  });

  it("closes the file when the client leaves mid-file", async () => {
    const server = await serveFiles();
    const bigPath = at("big.bin");
    const openCount = async () => {
      let count = 0;
      for (const fd of await readdir("/proc/self/fd")) {
        const target = await readlink(`/proc/self/fd/${fd}`).catch(() => "");
        if (target === bigPath) count++;
      }
      return count;
    };
    expect(await openCount()).toBe(0);
    const raw = await openRaw(server.port);
    await raw.write("GET /file?name=big.bin HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
    // The head and a first part of the body: the file is open, and the socket's buffers are full.
    await raw.waitFor("\r\n\r\n");
    expect(statusOf(raw.received())).toBe(200);
    await vi.waitFor(async () => expect(await openCount()).toBe(1), { timeout: 10_000, interval: 20 });
    raw.socket.destroy();
    await vi.waitFor(async () => expect(await openCount()).toBe(0), { timeout: 10_000, interval: 20 });
  });
});

describe("FileResponse conditional requests", () => {
  it("answers 304 without a body when If-None-Match holds the etag", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=hello.txt", { headers: { "if-none-match": HELLO_ETAG } });
    expect(response.status).toBe(304);
    expect(headersOf(response)).toEqual({ etag: HELLO_ETAG });
    expect(await response.text()).toBe("");
  });

  it("compares If-None-Match weakly, in a list", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=hello.txt", {
      headers: { "if-none-match": `"other", W/${HELLO_ETAG}` },
    });
    expect(response.status).toBe(304);
  });

  it("answers 304 to If-None-Match: *", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=hello.txt", { headers: { "if-none-match": "*" } });
    expect(response.status).toBe(304);
  });

  it("compares the conditions with an etag given in headers, which replaces the one made", async () => {
    const server = await serveFiles({ headers: { etag: '"v2"' } });
    const response = await server.fetch("/file?name=hello.txt", { headers: { "if-none-match": '"v2"' } });
    expect(response.status).toBe(304);
    expect(response.headers.get("etag")).toBe('"v2"');
  });

  it("answers 200 when If-None-Match does not match, whatever If-Modified-Since says", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=hello.txt", {
      headers: { "if-none-match": '"other"', "if-modified-since": LAST_MODIFIED },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(HELLO);
  });

  it("answers 304 when If-Modified-Since is at or after the last modification", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=hello.txt", {
      headers: { "if-modified-since": LAST_MODIFIED },
    });
    expect(response.status).toBe(304);
    expect(response.headers.get("etag")).toBe(HELLO_ETAG);
  });

  it("answers 200 when If-Modified-Since is before the last modification", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=hello.txt", {
      headers: { "if-modified-since": "Fri, 02 Jan 2026 03:04:04 GMT" },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(HELLO);
  });

  it("ignores an If-Modified-Since it cannot read", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=hello.txt", { headers: { "if-modified-since": "soon" } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(HELLO);
  });

  it("answers a status other than 200 whole, whatever the conditions", async () => {
    const server = await serveFiles({ status: 404 });
    const response = await server.fetch("/file?name=hello.txt", {
      headers: { "if-none-match": "*", range: "bytes=0-1" },
    });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(HELLO);
  });
});

describe("FileResponse preconditions: If-Match and If-Unmodified-Since", () => {
  async function conditional(headers: Record<string, string>, method = "GET", init: FileResponseInit = {}) {
    const server = await serveFiles(init);
    const response = await server.fetch("/file?name=hello.txt", { method, headers });
    return { status: response.status, headers: headersOf(response), body: await response.text() };
  }
  const PRECONDITION_FAILED = {
    status: 412,
    headers: {
      "content-length": "0",
      "last-modified": LAST_MODIFIED,
      etag: HELLO_ETAG,
      "accept-ranges": "bytes",
    },
    body: "",
  };

  it("answers If-Match holding the etag with the file", async () => {
    expect(await conditional({ "if-match": HELLO_ETAG })).toMatchObject({ status: 200, body: HELLO });
  });

  it("answers If-Match holding the etag in a list with the file", async () => {
    expect(await conditional({ "if-match": `"other", ${HELLO_ETAG}` })).toMatchObject({
      status: 200,
      body: HELLO,
    });
  });

  it("answers If-Match without the etag with 412, the validators and no body", async () => {
    expect(await conditional({ "if-match": '"other"' })).toEqual(PRECONDITION_FAILED);
  });

  it("compares If-Match strongly: the etag marked weak is a 412", async () => {
    expect(await conditional({ "if-match": `W/${HELLO_ETAG}` })).toEqual(PRECONDITION_FAILED);
  });

  it("answers If-Match: * with the file, which exists", async () => {
    expect(await conditional({ "if-match": "*" })).toMatchObject({ status: 200, body: HELLO });
  });

  it("compares If-Match with an etag given in headers, and never matches a weak one", async () => {
    expect(await conditional({ "if-match": '"v2"' }, "GET", { headers: { etag: '"v2"' } })).toMatchObject({
      status: 200,
      body: HELLO,
    });
    expect((await conditional({ "if-match": 'W/"v2"' }, "GET", { headers: { etag: 'W/"v2"' } })).status).toBe(
      412,
    );
  });

  it("answers If-Unmodified-Since at or after the last modification with the file", async () => {
    expect(await conditional({ "if-unmodified-since": LAST_MODIFIED })).toMatchObject({
      status: 200,
      body: HELLO,
    });
  });

  it("answers If-Unmodified-Since before the last modification with 412", async () => {
    expect(await conditional({ "if-unmodified-since": "Fri, 02 Jan 2026 03:04:04 GMT" })).toEqual(
      PRECONDITION_FAILED,
    );
  });

  it("ignores an If-Unmodified-Since it cannot read", async () => {
    expect(await conditional({ "if-unmodified-since": "yesterday" })).toMatchObject({
      status: 200,
      body: HELLO,
    });
  });

  it("ignores If-Unmodified-Since when If-Match is present", async () => {
    const early = "Fri, 02 Jan 2026 03:04:04 GMT";
    expect(await conditional({ "if-match": HELLO_ETAG, "if-unmodified-since": early })).toMatchObject({
      status: 200,
      body: HELLO,
    });
  });

  it("evaluates If-Match before If-None-Match: 412, not 304", async () => {
    expect(await conditional({ "if-match": '"other"', "if-none-match": HELLO_ETAG })).toEqual(
      PRECONDITION_FAILED,
    );
  });

  it("evaluates If-None-Match once If-Match holds: 304", async () => {
    expect((await conditional({ "if-match": HELLO_ETAG, "if-none-match": HELLO_ETAG })).status).toBe(304);
  });

  it("evaluates If-Unmodified-Since before Range: 412, not 206", async () => {
    const early = "Fri, 02 Jan 2026 03:04:04 GMT";
    expect(await conditional({ "if-unmodified-since": early, range: "bytes=0-1" })).toEqual(
      PRECONDITION_FAILED,
    );
  });

  it("answers HEAD whose If-Match fails with 412 and no body", async () => {
    expect(await conditional({ "if-match": '"other"' }, "HEAD")).toEqual(PRECONDITION_FAILED);
  });

  it("answers a status other than 200 whole, whatever If-Match says", async () => {
    expect(await conditional({ "if-match": '"other"' }, "GET", { status: 404 })).toMatchObject({
      status: 404,
      body: HELLO,
    });
  });
});

describe("FileResponse byte ranges", () => {
  async function ranged(range: string, extra: Record<string, string> = {}) {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=digits", { headers: { range, ...extra } });
    return { status: response.status, headers: headersOf(response), body: await response.text() };
  }

  it("answers Range: bytes=a-b with 206, content-range and those bytes", async () => {
    expect(await ranged("bytes=2-5")).toEqual({
      status: 206,
      headers: {
        "content-type": "application/octet-stream",
        "content-length": "4",
        "content-range": "bytes 2-5/10",
        "last-modified": LAST_MODIFIED,
        etag: `"a-${MODIFIED.getTime().toString(16)}"`,
        "accept-ranges": "bytes",
      },
      body: "2345",
    });
  });

  it("answers Range: bytes=a- with the bytes from a to the end", async () => {
    const { status, headers, body } = await ranged("bytes=7-");
    expect({ status, range: headers["content-range"], body }).toEqual({
      status: 206,
      range: "bytes 7-9/10",
      body: "789",
    });
  });

  it("answers Range: bytes=-n with the last n bytes", async () => {
    const { status, headers, body } = await ranged("bytes=-3");
    expect({ status, range: headers["content-range"], body }).toEqual({
      status: 206,
      range: "bytes 7-9/10",
      body: "789",
    });
  });

  it("ends a range that goes past the end at the last byte", async () => {
    const { status, headers, body } = await ranged("bytes=8-100");
    expect({ status, range: headers["content-range"], body }).toEqual({
      status: 206,
      range: "bytes 8-9/10",
      body: "89",
    });
  });

  it("answers a range that starts past the end with 416 and content-range: bytes */size", async () => {
    const { status, headers, body } = await ranged("bytes=10-");
    expect({ status, headers, body }).toEqual({
      status: 416,
      headers: {
        "content-length": "0",
        "content-range": "bytes */10",
        "last-modified": LAST_MODIFIED,
        etag: `"a-${MODIFIED.getTime().toString(16)}"`,
        "accept-ranges": "bytes",
      },
      body: "",
    });
  });

  it("answers Range: bytes=-0 with 416", async () => {
    expect((await ranged("bytes=-0")).status).toBe(416);
  });

  it.each([
    ["a last position before the first", "bytes=5-2"],
    ["another unit", "items=0-1"],
    ["no numbers", "bytes=abc"],
    ["no unit", "0-1"],
  ])("ignores a malformed Range (%s) and answers the whole file", async (_case, range) => {
    expect(await ranged(range)).toMatchObject({ status: 200, body: "0123456789" });
  });

  it("ignores empty list elements in Range: bytes=0-1, ,4-5, is two ranges; only commas is malformed", async () => {
    const { status, headers, body } = await ranged("bytes=0-1, ,4-5,");
    const boundary = boundaryOf(headers["content-type"]);
    expect({ status, body }).toEqual({
      status: 206,
      body: multipartOf(boundary, "application/octet-stream", 10, [
        [0, 1, "01"],
        [4, 5, "45"],
      ]),
    });
    expect(await ranged("bytes=2-5,")).toMatchObject({ status: 206, body: "2345" });
    expect(await ranged("bytes= , ,")).toMatchObject({ status: 200, body: "0123456789" });
  });

  it("answers several ranges none of which can be satisfied with 416", async () => {
    expect((await ranged("bytes=20-30, 40-")).status).toBe(416);
  });

  it("honours the range when If-Range holds the etag", async () => {
    const etag = `"a-${MODIFIED.getTime().toString(16)}"`;
    expect(await ranged("bytes=0-1", { "if-range": etag })).toMatchObject({ status: 206, body: "01" });
  });

  it("honours the range when If-Range holds the last-modified date", async () => {
    expect(await ranged("bytes=0-1", { "if-range": LAST_MODIFIED })).toMatchObject({
      status: 206,
      body: "01",
    });
  });

  it("answers the whole file when If-Range holds another etag, a weak one, or another date", async () => {
    const etag = `"a-${MODIFIED.getTime().toString(16)}"`;
    for (const ifRange of ['"other"', `W/${etag}`, "Fri, 02 Jan 2026 03:04:04 GMT"]) {
      expect(await ranged("bytes=0-1", { "if-range": ifRange })).toMatchObject({
        status: 200,
        body: "0123456789",
      });
    }
  });

  it("answers HEAD with Range with the status and headers GET gets, and no body", async () => {
    const server = await serveFiles();
    const etag = `"a-${MODIFIED.getTime().toString(16)}"`;
    const asked: Record<string, string>[] = [
      { range: "bytes=2-5" },
      { range: "bytes=-3" },
      { range: "bytes=10-" },
      { range: "bytes=5-2" },
      { range: "bytes=0-1", "if-range": etag },
      { range: "bytes=0-1", "if-range": '"other"' },
    ];
    for (const headers of asked) {
      const get = await server.fetch("/file?name=digits", { headers });
      const head = await server.fetch("/file?name=digits", { method: "HEAD", headers });
      expect({ status: head.status, headers: headersOf(head), body: await head.text() }).toEqual({
        status: get.status,
        headers: headersOf(get),
        body: "",
      });
    }
    const head = await server.fetch("/file?name=digits", { method: "HEAD", headers: { range: "bytes=2-5" } });
    expect([head.status, head.headers.get("content-range"), head.headers.get("content-length")]).toEqual([
      206,
      "bytes 2-5/10",
      "4",
    ]);
  });

  it("answers HEAD with Range without opening the file", async () => {
    // A path where there is no file, with its facts given: GET would fail to open it, HEAD never opens it.
    const facts = { size: 10, mtimeMs: MODIFIED.getTime(), isFile: () => true };
    const server = await serve(
      [
        path("/gone", {
          endpoint: endpoint({
            returns: FileResponse,
            handler: () => new FileResponse(at("never-written.bin"), { stat: facts }),
          }),
        }),
      ],
      { settings: { DEBUG: true }, logger: quietLogger },
    );
    const single = await server.fetch("/gone", { method: "HEAD", headers: { range: "bytes=2-5" } });
    expect([single.status, single.headers.get("content-range"), await single.text()]).toEqual([
      206,
      "bytes 2-5/10",
      "",
    ]);
    const several = await server.fetch("/gone", { method: "HEAD", headers: { range: "bytes=0-1,4-5" } });
    boundaryOf(several.headers.get("content-type") ?? undefined);
    expect([several.status, await several.text()]).toEqual([206, ""]);
  });
});

const DIGITS_ETAG = `"a-${MODIFIED.getTime().toString(16)}"`;

/** The boundary a multipart/byteranges answer names in its content-type. */
function boundaryOf(contentType: string | undefined): string {
  const match = /^multipart\/byteranges; boundary=([0-9a-f]{24})$/.exec(contentType ?? "");
  if (match === null) throw new Error(`not multipart/byteranges with a boundary: ${contentType}`);
  return match[1]!;
}

/** The body RFC 9110 §14.6 describes: each part's head (type, range) and bytes, then the closing line. */
function multipartOf(
  boundary: string,
  type: string,
  size: number,
  parts: [number, number, string][],
): string {
  const heads = parts.map(
    ([start, end, bytes], index) =>
      `${index === 0 ? "" : "\r\n"}--${boundary}\r\ncontent-type: ${type}\r\n` +
      `content-range: bytes ${start}-${end}/${size}\r\n\r\n${bytes}`,
  );
  return `${heads.join("")}\r\n--${boundary}--\r\n`;
}

describe("FileResponse several ranges: multipart/byteranges", () => {
  async function ranged(range: string, extra: Record<string, string> = {}, name = "digits") {
    const server = await serveFiles();
    const response = await server.fetch(`/file?name=${name}`, { headers: { range, ...extra } });
    const headers = headersOf(response);
    return { status: response.status, headers, body: await response.text() };
  }
  const octets = "application/octet-stream";

  it("answers two ranges with 206 multipart/byteranges: one part each, with its type and content-range", async () => {
    const { status, headers, body } = await ranged("bytes=0-1, 4-5");
    const boundary = boundaryOf(headers["content-type"]);
    const expected = multipartOf(boundary, octets, 10, [
      [0, 1, "01"],
      [4, 5, "45"],
    ]);
    expect({ status, headers, body }).toEqual({
      status: 206,
      headers: {
        "content-type": `multipart/byteranges; boundary=${boundary}`,
        "content-length": String(expected.length),
        "last-modified": LAST_MODIFIED,
        etag: DIGITS_ETAG,
        "accept-ranges": "bytes",
      },
      body: expected,
    });
  });

  it("gives each part the file's content type", async () => {
    const server = await serveFiles({ contentType: "text/x-digits" });
    const response = await server.fetch("/file?name=digits", { headers: { range: "bytes=-2,0-0" } });
    const boundary = boundaryOf(response.headers.get("content-type")!);
    expect(await response.text()).toBe(
      multipartOf(boundary, "text/x-digits", 10, [
        [8, 9, "89"],
        [0, 0, "0"],
      ]),
    );
  });

  it("makes a new boundary for every answer", async () => {
    const first = (await ranged("bytes=0-1,4-5")).headers["content-type"];
    const second = (await ranged("bytes=0-1,4-5")).headers["content-type"];
    expect(boundaryOf(first)).not.toBe(boundaryOf(second));
  });

  it("sends the parts in the order asked", async () => {
    const { headers, body } = await ranged("bytes=6-7,0-1");
    expect(body).toBe(
      multipartOf(boundaryOf(headers["content-type"]), octets, 10, [
        [6, 7, "67"],
        [0, 1, "01"],
      ]),
    );
  });

  it("coalesces ranges that overlap or touch into one part, at the place of the first", async () => {
    const { headers, body } = await ranged("bytes=6-7,0-2,2-3,5-5");
    expect(body).toBe(
      multipartOf(boundaryOf(headers["content-type"]), octets, 10, [
        [5, 7, "567"],
        [0, 3, "0123"],
      ]),
    );
  });

  it("answers ranges that coalesce into one as a single range: 206 with content-range", async () => {
    const { status, headers, body } = await ranged("bytes=0-3,2-5");
    expect({ status, type: headers["content-type"], range: headers["content-range"], body }).toEqual({
      status: 206,
      type: octets,
      range: "bytes 0-5/10",
      body: "012345",
    });
  });

  it("leaves out the ranges past the end and answers the others", async () => {
    const { headers, body } = await ranged("bytes=0-1,20-30,4-5");
    expect(body).toBe(
      multipartOf(boundaryOf(headers["content-type"]), octets, 10, [
        [0, 1, "01"],
        [4, 5, "45"],
      ]),
    );
    const single = await ranged("bytes=20-,7-8");
    expect({ status: single.status, range: single.headers["content-range"], body: single.body }).toEqual({
      status: 206,
      range: "bytes 7-8/10",
      body: "78",
    });
  });

  it("answers up to 100 ranges, and ignores a Range of more (the whole file, 200)", async () => {
    const specs = (count: number) => Array.from({ length: count }, (_, index) => `${index * 3}-${index * 3}`);
    const hundred = await ranged(`bytes=${specs(100).join(",")}`, {}, "thousand.txt");
    const boundary = boundaryOf(hundred.headers["content-type"]);
    expect(hundred.status).toBe(206);
    expect(hundred.body).toBe(
      multipartOf(
        boundary,
        "text/plain; charset=utf-8",
        1000,
        specs(100).map((_, index) => [index * 3, index * 3, String((index * 3) % 10)]),
      ),
    );
    const more = await ranged(`bytes=${specs(101).join(",")}`, {}, "thousand.txt");
    expect({ status: more.status, length: more.headers["content-length"], body: more.body }).toEqual({
      status: 200,
      length: "1000",
      body: "0123456789".repeat(100),
    });
  });

  it("honours several ranges when If-Range holds the etag, and sends the whole file when it does not", async () => {
    const held = await ranged("bytes=0-1,4-5", { "if-range": DIGITS_ETAG });
    expect(held.status).toBe(206);
    expect(boundaryOf(held.headers["content-type"])).toMatch(/^[0-9a-f]{24}$/);
    expect(await ranged("bytes=0-1,4-5", { "if-range": '"other"' })).toMatchObject({
      status: 200,
      body: "0123456789",
    });
  });

  it("answers HEAD with several ranges with the multipart headers GET gets (its own boundary), and no body", async () => {
    const server = await serveFiles();
    const headers = { range: "bytes=0-1,4-5" };
    const get = await server.fetch("/file?name=digits", { headers });
    const head = await server.fetch("/file?name=digits", { method: "HEAD", headers });
    const getHeaders = headersOf(get);
    const headHeaders = headersOf(head);
    const getBoundary = boundaryOf(getHeaders["content-type"]);
    const headBoundary = boundaryOf(headHeaders["content-type"]);
    expect({
      status: head.status,
      headers: { ...headHeaders, "content-type": headHeaders["content-type"]!.replace(headBoundary, "B") },
      body: await head.text(),
    }).toEqual({
      status: 206,
      headers: { ...getHeaders, "content-type": getHeaders["content-type"]!.replace(getBoundary, "B") },
      body: "",
    });
    expect(headHeaders["content-length"]).toBe(
      String(
        multipartOf(headBoundary, octets, 10, [
          [0, 1, "01"],
          [4, 5, "45"],
        ]).length,
      ),
    );
  });

  it("answers several ranges the same through the test client", async () => {
    const app = createApp({ routes: [path("/file", { endpoint: fileEndpoint() })] });
    const response = await testClient(app).get("/file", {
      query: { name: "digits" },
      headers: { range: "bytes=0-1,4-5" },
    });
    const boundary = boundaryOf(response.headers.get("content-type") ?? undefined);
    const expected = multipartOf(boundary, octets, 10, [
      [0, 1, "01"],
      [4, 5, "45"],
    ]);
    expect([response.status, response.headers.get("content-length"), response.text]).toEqual([
      206,
      String(expected.length),
      expected,
    ]);
  });

  it("streams large parts from the file, with the exact content-length", async () => {
    const server = await serveFiles();
    const response = await server.fetch("/file?name=big.bin", {
      headers: { range: "bytes=0-4194303,8388608-12582911" },
    });
    const boundary = boundaryOf(response.headers.get("content-type")!);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const first = `--${boundary}\r\ncontent-type: ${octets}\r\ncontent-range: bytes 0-4194303/${BIG_SIZE}\r\n\r\n`;
    const second = `\r\n--${boundary}\r\ncontent-type: ${octets}\r\ncontent-range: bytes 8388608-12582911/${BIG_SIZE}\r\n\r\n`;
    const closing = `\r\n--${boundary}--\r\n`;
    const length = first.length + 4194304 + second.length + 4194304 + closing.length;
    expect([response.status, response.headers.get("content-length"), bytes.length]).toEqual([
      206,
      String(length),
      length,
    ]);
    const text = (from: number, count: number) =>
      new TextDecoder().decode(bytes.subarray(from, from + count));
    expect(text(0, first.length)).toBe(first);
    expect(text(first.length + 4194304, second.length)).toBe(second);
    expect(text(length - closing.length, closing.length)).toBe(closing);
    const data = [
      bytes.subarray(first.length, first.length + 4194304),
      bytes.subarray(first.length + 4194304 + second.length, length - closing.length),
    ];
    expect(data.every((part) => part.every((byte) => byte === 7))).toBe(true);
  });

  it("closes the file when the client leaves mid-multipart", async () => {
    const server = await serveFiles();
    const bigPath = at("big.bin");
    const openCount = async () => {
      let count = 0;
      for (const fd of await readdir("/proc/self/fd")) {
        const target = await readlink(`/proc/self/fd/${fd}`).catch(() => "");
        if (target === bigPath) count++;
      }
      return count;
    };
    expect(await openCount()).toBe(0);
    const raw = await openRaw(server.port);
    await raw.write(
      "GET /file?name=big.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=0-8388607,8388609-\r\nConnection: keep-alive\r\n\r\n",
    );
    await raw.waitFor("\r\n\r\n");
    expect(statusOf(raw.received())).toBe(206);
    await vi.waitFor(async () => expect(await openCount()).toBe(1), { timeout: 10_000, interval: 20 });
    raw.socket.destroy();
    await vi.waitFor(async () => expect(await openCount()).toBe(0), { timeout: 10_000, interval: 20 });
  });

  it("cuts the connection when the file ends before a part (it shrank while sent)", async () => {
    // The stat given says 20 bytes; the file holds 10: as if it was truncated after it was looked at.
    const stat = { size: 20, mtimeMs: MODIFIED.getTime(), isFile: () => true };
    const shrunk = endpoint({
      returns: FileResponse,
      handler: () => new FileResponse(at("digits"), { stat }),
    });
    const server = await serve([path("/shrunk", { endpoint: shrunk })], { logger: quietLogger });
    const raw = await openRaw(server.port);
    await raw.write(
      "GET /shrunk HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1,15-19\r\nConnection: keep-alive\r\n\r\n",
    );
    await raw.waitFor("content-range: bytes 15-19/20\r\n\r\n");
    // Were the connection kept, this request's answer would be read as the missing bytes.
    await raw.write("GET /shrunk HTTP/1.1\r\nHost: x\r\n\r\n");
    const received = await raw.closed();
    expect(statusOf(received)).toBe(206);
    expect(received.endsWith("content-range: bytes 15-19/20\r\n\r\n")).toBe(true);
  });
});

describe("FileResponse outside an endpoint", () => {
  it("is answered whole when a middleware returns it", async () => {
    const maintenance: Middleware = () => new FileResponse(at("hello.txt"));
    const server = await serve([path("/file", { endpoint: fileEndpoint() })], { middleware: [maintenance] });
    const response = await server.fetch("/file?name=digits");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe("13");
    expect(response.headers.get("etag")).toBe(HELLO_ETAG);
    expect(await response.text()).toBe(HELLO);
  });

  it("is answered with its file when an exception handler returns it", async () => {
    const notFoundPage = exceptionHandler(
      NotFoundError,
      () => new FileResponse(at("hello.txt"), { status: 404 }),
    );
    const server = await serve([], { exceptionHandlers: [notFoundPage] });
    const response = await server.fetch("/nowhere");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-length")).toBe("13");
    expect(await response.text()).toBe(HELLO);
  });

  it("passes through a middleware unchanged once the endpoint made it (a 206 stays a 206)", async () => {
    const passing: Middleware = async (request, next) => next(request);
    const server = await serve([path("/file", { endpoint: fileEndpoint() })], { middleware: [passing] });
    const response = await server.fetch("/file?name=digits", { headers: { range: "bytes=2-5" } });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-length")).toBe("4");
    expect(await response.text()).toBe("2345");
  });
});
