// The generated client against servers and proxies that misbehave: raw bytes on loopback, no mocks.
// Every answer must be a documented branch; nothing throws outside them, nothing hangs past the
// call's signal, and nothing is left open.
import type { Socket } from "node:net";
import { waitFor } from "process-support";
import { createApp } from "unruffled";
import {
  bindOperations,
  EventStreamError,
  type RateLimitedAnswer,
  SocketMessageError,
} from "unruffled/client";
import { JsonResponse } from "unruffled/http";
import { rateLimit } from "unruffled/rate-limit";
import { endpoint, path } from "unruffled/route";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import { clientModel } from "../../src/client-generator/client-model.ts";
import { answer, type HostileServer, startHostileServer } from "../support/hostile-http.ts";
import { settledNow } from "../support/settled-now.ts";
import { createClient as createSocketClient } from "../websocket/client/socket-client.generated.ts";
import { type Client, createClient } from "./fixture-client.generated.ts";

const nginx502 =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n";
const nginx504 = nginx502.replaceAll("502 Bad Gateway", "504 Gateway Time-out");
const eventStreamHead =
  "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

/** One chunk of a chunked body. */
function chunk(text: string): string {
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
}

let endlessBytes = 0;
/** Writes chunks for as long as the peer reads them. */
function endlessBody(socket: Socket): void {
  socket.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
  const piece = chunk(`${"1,".repeat(32_768)}`);
  const pump = () => {
    while (socket.writable) {
      endlessBytes += piece.length;
      if (!socket.write(piece)) return void socket.once("drain", pump);
    }
  };
  pump();
}

const answers: Record<string, (socket: Socket) => void> = {
  "/students/502": (socket) =>
    socket.end(answer("502 Bad Gateway", { "Content-Type": "text/html" }, nginx502)),
  "/students/504": (socket) =>
    socket.end(answer("504 Gateway Time-out", { "Content-Type": "text/html" }, nginx504)),
  "/admin": (socket) =>
    socket.end(
      answer("403 Forbidden", { "Content-Type": "text/html; charset=UTF-8" }, "<h1>Access denied</h1>"),
    ),
  "/students/text-plain": (socket) =>
    socket.end(answer("200 OK", { "Content-Type": "text/plain" }, '{"id":1}')),
  "/students/no-type": (socket) => socket.end(answer("200 OK", {}, '{"id":1}')),
  "/students/empty-json": (socket) =>
    socket.end(answer("200 OK", { "Content-Type": "application/json" }, "")),
  "/students/empty": (socket) => socket.end(answer("200 OK", {}, "")),
  "/students/204-with-body": (socket) =>
    socket.end(answer("204 No Content", { "Content-Type": "application/json" }, '{"id":1}')),
  "/students/cut-length": (socket) => {
    socket.end(
      answer("200 OK", { "Content-Type": "application/json", "Content-Length": "100" }, '{"id":1,"na'),
    );
  },
  "/students/cut-chunk": (socket) => {
    socket.end(
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"id"\r\n`,
    );
  },
  "/students/not-gzip": (socket) =>
    socket.end(
      answer("200 OK", { "Content-Type": "application/json", "Content-Encoding": "gzip" }, '{"id":1}'),
    ),
  "/students/loop": (socket) => socket.end(answer("302 Found", { Location: "/students/loop" })),
  "/students/not-http": (socket) => socket.end("SSH-2.0-OpenSSH_9.2\r\n"),
  "/students/never": () => {},
  "/students/stalls-mid-body": (socket) =>
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"id"'),
  "/students/endless": endlessBody,
  "/ticks?from=1": (socket) => {
    socket.write(eventStreamHead);
    socket.end(
      `${chunk('garbage line\nfoo: bar\n: a comment\ndata {"n":9}\n\nevent\nid\ndata: {"n":1}\n\n<html>\r\n\r\ndata: {"n":2}\n\n')}0\r\n\r\n`,
    );
  },
  "/ticks?from=2": (socket) => {
    socket.end(eventStreamHead + chunk('data: {"n":2}\n\n'));
  },
  "/ticks?from=3": (socket) => socket.write(eventStreamHead + chunk('data: {"n":3}\n\n')),
  "/chat/lobby?nick=502": (socket) =>
    socket.end(answer("502 Bad Gateway", { "Content-Type": "text/html" }, nginx502)),
  "/chat/lobby?nick=never": () => {},
};

let server: HostileServer;
let client: Client;
beforeAll(async () => {
  server = await startHostileServer(answers);
  client = createClient({ baseUrl: server.url });
});
afterAll(async () => {
  await server?.close();
});

/** The test process's own TCP sockets: the client's and the hostile server's ends. */
function openSockets(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === "TCPSocketWrap").length;
}

async function nothingLeftOpen(baseline: number): Promise<void> {
  await waitFor("every socket of the call closed", () =>
    server.openConnections() === 0 && openSockets() <= baseline ? true : undefined,
  );
}

describe("a proxy or server that answers something else", () => {
  it("gives nginx's HTML 502 and 504 pages as undocumented answers, the page as text", async () => {
    expect(await client.get_student({ student_id: 502 })).toMatchObject({
      kind: "undocumented",
      status: 502,
      contentType: "text/html",
      body: nginx502,
    });
    expect(await client.get_student({ student_id: 504 })).toMatchObject({
      kind: "undocumented",
      status: 504,
      contentType: "text/html",
      body: nginx504,
    });
  });

  it("gives a CDN's HTML 403 for an operation that documents a JSON 403 as a decode failure", async () => {
    expect(await client.admin_only()).toMatchObject({
      kind: "decode-failure",
      status: 403,
      contentType: "text/html",
      text: "<h1>Access denied</h1>",
      message: "The 403 answer is text/html, not application/json as documented.",
    });
  });

  it("gives JSON under another content type, or none, as a decode failure", async () => {
    expect(await client.get_student({ student_id: "text-plain" as never })).toMatchObject({
      kind: "decode-failure",
      status: 200,
      contentType: "text/plain",
      text: '{"id":1}',
      message: "The 200 answer is text/plain, not application/json as documented.",
    });
    expect(await client.get_student({ student_id: "no-type" as never })).toMatchObject({
      kind: "decode-failure",
      status: 200,
      contentType: null,
      text: '{"id":1}',
      message: "The 200 answer is without a content type, not application/json as documented.",
    });
  });

  it("gives an empty 200 as a decode failure, with a JSON content type or without one", async () => {
    expect(await client.get_student({ student_id: "empty-json" as never })).toMatchObject({
      kind: "decode-failure",
      status: 200,
      contentType: "application/json",
      text: "",
      message: "The 200 answer is not JSON, as its content type application/json says.",
    });
    expect(await client.get_student({ student_id: "empty" as never })).toMatchObject({
      kind: "decode-failure",
      status: 200,
      contentType: null,
      text: "",
      message: "The 200 answer is without a content type, not application/json as documented.",
    });
  });

  it("gives a 204 that carries a body as what it is, a 204: without a body", async () => {
    const result = await client.get_student({ student_id: "204-with-body" as never });
    expect(result).toMatchObject({ kind: "undocumented", status: 204, contentType: "application/json" });
    expect(result.kind === "undocumented" && result.body).toBeUndefined();
  });

  it("gives a body cut before its length, or mid-chunk, as a network failure that names the cause", async () => {
    expect(await client.get_student({ student_id: "cut-length" as never })).toMatchObject({
      kind: "network-failure",
      aborted: false,
      message: "The request failed: terminated (Response body length does not match content-length header)",
    });
    expect(await client.get_student({ student_id: "cut-chunk" as never })).toMatchObject({
      kind: "network-failure",
      aborted: false,
      message: "The request failed: terminated (other side closed)",
    });
  });

  it("gives a body that is not the gzip its Content-Encoding says as a network failure that names the cause", async () => {
    expect(await client.get_student({ student_id: "not-gzip" as never })).toMatchObject({
      kind: "network-failure",
      aborted: false,
      message: "The request failed: terminated (incorrect header check)",
    });
  });

  it("gives a redirect loop as a network failure that names the cause", async () => {
    expect(await client.get_student({ student_id: "loop" as never })).toMatchObject({
      kind: "network-failure",
      aborted: false,
      message: "The request failed: fetch failed (redirect count exceeded)",
    });
  });

  it("gives an answer that is not HTTP as a network failure that names the cause", async () => {
    expect(await client.get_student({ student_id: "not-http" as never })).toMatchObject({
      kind: "network-failure",
      aborted: false,
      message:
        "The request failed: fetch failed (Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/))",
    });
  });
});

describe("a server that stalls, or never stops", () => {
  it.each([
    ["never answers", "never"],
    ["stalls in the middle of its body", "stalls-mid-body"],
  ])("ends a call whose server %s when its signal aborts, leaving nothing open", async (_how, id) => {
    const baseline = openSockets();
    const abort = new AbortController();
    const call = client.get_student({ student_id: id as never }, { signal: abort.signal });
    await waitFor("the request reached the server", () =>
      server.requests(`/students/${id}`) > 0 ? true : undefined,
    );
    abort.abort();
    expect(await call).toMatchObject({
      kind: "network-failure",
      aborted: true,
      message: "The call was aborted.",
    });
    await nothingLeftOpen(baseline);
  });

  it("ends a call whose server never answers when an AbortSignal.timeout fires, as the docs advise", async () => {
    const baseline = openSockets();
    // The server never answers: whenever the timer fires, the call can only end aborted.
    const result = await client.get_student(
      { student_id: "never" as never },
      { signal: AbortSignal.timeout(50) },
    );
    expect(result).toMatchObject({
      kind: "network-failure",
      aborted: true,
      message: "The call was aborted.",
    });
    await nothingLeftOpen(baseline);
  });

  it("ends a call reading an endless body when its signal aborts, leaving nothing open", async () => {
    const baseline = openSockets();
    const abort = new AbortController();
    const start = endlessBytes;
    const call = client.get_student({ student_id: "endless" as never }, { signal: abort.signal });
    // 16 MB read and counting: the client reads a body to its end, however long.
    await waitFor("16 MB sent", () => (endlessBytes - start > 16 * 2 ** 20 ? true : undefined));
    abort.abort();
    expect(await call).toMatchObject({
      kind: "network-failure",
      aborted: true,
      message: "The call was aborted.",
    });
    await nothingLeftOpen(baseline);
  });
});

describe("an event stream that misbehaves", () => {
  it("skips lines that are not fields, and reads the events around them", async () => {
    const result = await client.ticks({ from: 1 });
    if (result.kind !== "documented" || result.contentType !== "text/event-stream")
      throw new Error("no stream");
    const events = [];
    for await (const event of result.events) events.push(event);
    expect(events).toEqual([{ data: { n: 1 }, event: "", id: "" }, { data: { n: 2 } }]);
  });

  it("ends the loop with an EventStreamError when the connection is cut mid-stream", async () => {
    const result = await client.ticks({ from: 2 });
    if (result.kind !== "documented" || result.contentType !== "text/event-stream")
      throw new Error("no stream");
    const seen: unknown[] = [];
    let failure: unknown;
    try {
      for await (const event of result.events) seen.push(event.data);
    } catch (error) {
      failure = error;
    }
    expect(seen).toEqual([{ n: 2 }]);
    expect(failure).toBeInstanceOf(EventStreamError);
    expect((failure as Error).message).toBe(
      "The event stream was cut before its end: terminated (other side closed)",
    );
  });

  it("ends a stalled stream when the signal aborts, and when the loop breaks, leaving nothing open", async () => {
    const baseline = openSockets();
    const abort = new AbortController();
    const aborted = await client.ticks({ from: 3 }, { signal: abort.signal });
    if (aborted.kind !== "documented" || aborted.contentType !== "text/event-stream")
      throw new Error("no stream");
    const seen: unknown[] = [];
    for await (const event of aborted.events) {
      seen.push(event.data);
      // The server sends nothing more: only the signal ends this loop.
      setImmediate(() => abort.abort());
    }
    expect(seen).toEqual([{ n: 3 }]);
    await nothingLeftOpen(baseline);
    const broken = await client.ticks({ from: 3 });
    if (broken.kind !== "documented" || broken.contentType !== "text/event-stream")
      throw new Error("no stream");
    for await (const event of broken.events) {
      expect(event.data).toEqual({ n: 3 });
      break;
    }
    await nothingLeftOpen(baseline);
  });
});

describe("a 429 whose Retry-After is odd, or missing", () => {
  const hello = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({}) });
  const limited = createApp({
    routes: [
      path("/hello", {
        endpoint: hello,
        name: "hello",
        rateLimits: [rateLimit({ name: "q", limit: 1, window: 60 })],
      }),
    ],
  });
  const plan = clientModel(limited).operations[0]!.plan;
  type Hello = () => Promise<{ kind: string; status?: number } & Partial<RateLimitedAnswer<string, unknown>>>;

  /** A retrying client of a 429 answered with this Retry-After, and the number of requests it made. */
  async function refusedWith(retryAfter: string | undefined, maxWait = 60) {
    const target = `/hello-${encodeURIComponent(retryAfter ?? "none")}`;
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (retryAfter !== undefined) headers["Retry-After"] = retryAfter;
    const refuser = await startHostileServer({
      [target]: (socket) => socket.end(answer("429 Too Many Requests", headers, '{"detail":"slow down"}')),
    });
    try {
      const retrying = bindOperations<{ hello: Hello }>(
        { hello: { ...plan, path: target } },
        { baseUrl: refuser.url, retryRateLimited: { attempts: 3, maxWait } },
      );
      const result = await retrying.hello();
      return { result, requests: refuser.requests(target) };
    } finally {
      await refuser.close();
    }
  }

  it.each([
    ["a negative number", "-5"],
    ["a fraction", "1.5"],
    ["a word", "soon"],
  ])("does not retry on %s, which is no Retry-After", async (_what, value) => {
    const { result, requests } = await refusedWith(value);
    expect(result).toMatchObject({ kind: "documented", status: 429, body: { detail: "slow down" } });
    expect(result.retryAfter).toBeUndefined();
    expect(requests).toBe(1);
  });

  it("gives a 429 without Retry-After back at once", async () => {
    const { result, requests } = await refusedWith(undefined);
    expect(result).toMatchObject({ kind: "documented", status: 429, retryAfter: undefined });
    expect(requests).toBe(1);
  });

  it("gives a huge Retry-After, in seconds or as a far HTTP date, back at once as the wait it asks", async () => {
    const seconds = await refusedWith("99999999999");
    expect(seconds.result).toMatchObject({ status: 429, retryAfter: 99999999999 });
    expect(seconds.requests).toBe(1);
    const date = await refusedWith("Fri, 01 Jan 2100 00:00:00 GMT");
    expect(date.result.retryAfter).toBeGreaterThan(60);
    expect(date.requests).toBe(1);
  });

  it("gives back a wait longer than a timer can hold (24.8 days) even when maxWait allows it", async () => {
    // setTimeout fires at once for more than 2^31 - 1 ms: waiting that long would be retrying now.
    const { result, requests } = await refusedWith("99999999", Number.POSITIVE_INFINITY);
    expect(result).toMatchObject({ status: 429, retryAfter: 99999999 });
    expect(requests).toBe(1);
  });

  it("retries at once after an HTTP date already past", async () => {
    const { result, requests } = await refusedWith("Thu, 01 Jan 1970 00:00:00 GMT");
    expect(result).toMatchObject({ status: 429, retryAfter: 0 });
    expect(requests).toBe(4);
  });
});

describe("a WebSocket server that sends what the route's model refuses", () => {
  let sockets: WebSocketServer;
  let socketClient: ReturnType<typeof createSocketClient>;
  const scripts: Record<string, (socket: WebSocket) => void> = {
    text: (socket) => {
      socket.send('{"type":"said","nick":"a","text":"first"}');
      socket.send("<html>not json");
      socket.send('{"type":"said","nick":"a","text":"after"}');
    },
    binary: (socket) => socket.send(Buffer.from([1, 2, 3])),
    // Sends only once asked, so the client's readers are all waiting by then.
    asked: (socket) =>
      socket.once("message", () => {
        socket.send('{"type":"said","nick":"a","text":"first"}');
        socket.send("<html>not json");
        socket.send('{"type":"said","nick":"a","text":"after"}');
      }),
    "code-4000": (socket) => socket.close(4000, "custom"),
    "code-1011": (socket) => socket.close(1011, "internal error"),
    vanish: (socket) => {
      socket.send('{"type":"said","nick":"a","text":"bye"}');
      socket.once("message", () => socket.terminate());
    },
  };
  beforeAll(async () => {
    sockets = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise((resolve) => sockets.once("listening", resolve));
    sockets.on("connection", (socket, request) => {
      const nick = new URL(request.url ?? "/", "http://x").searchParams.get("nick") ?? "";
      scripts[nick]?.(socket);
    });
    socketClient = createSocketClient({
      baseUrl: `http://127.0.0.1:${(sockets.address() as { port: number }).port}`,
    });
  });
  afterAll(async () => {
    for (const socket of sockets?.clients ?? []) socket.terminate();
    await new Promise((resolve) => sockets?.close(resolve));
  });

  /** Every message until the loop ends, and how it ended. */
  async function readAll(nick: string) {
    const opened = await socketClient.chat({ room: "lobby", nick });
    if (!opened.ok) throw new Error(`not open: ${opened.close.code}`);
    const messages: unknown[] = [];
    let failure: unknown;
    try {
      for await (const message of opened.socket) {
        messages.push(message);
        if (nick === "vanish") opened.socket.send({ type: "leave" });
      }
    } catch (error) {
      failure = error;
    }
    return { messages, failure, close: await opened.socket.closed };
  }

  it("ends the loop with a SocketMessageError for text that is not JSON, and closes the socket", async () => {
    const { messages, failure, close } = await readAll("text");
    expect(messages).toEqual([{ type: "said", nick: "a", text: "first" }]);
    expect(failure).toBeInstanceOf(SocketMessageError);
    expect((failure as Error).message).toBe("A message is not JSON: <html>not json");
    expect((failure as SocketMessageError).data).toBe("<html>not json");
    expect(close.code).toBe(1000);
  });

  it("hands out the messages before an unreadable one, then its error, when read only after the close", async () => {
    const opened = await socketClient.chat({ room: "lobby", nick: "text" });
    if (!opened.ok) throw new Error("not open");
    expect((await opened.socket.closed).code).toBe(1000);
    const iterator = opened.socket[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { type: "said", nick: "a", text: "first" } });
    await expect(iterator.next()).rejects.toThrow(new SocketMessageError("<html>not json"));
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it("gives several next() calls waiting at once the messages in order, the SocketMessageError once, then done", async () => {
    const opened = await socketClient.chat({ room: "lobby", nick: "asked" });
    if (!opened.ok) throw new Error("not open");
    const messages = opened.socket[Symbol.asyncIterator]();
    const reads = [messages.next(), messages.next(), messages.next(), messages.next()];
    // Handled now: the failure comes before the test reads it.
    for (const read of reads) read.catch(() => {});
    opened.socket.send({ type: "say", text: "go" });
    expect((await opened.socket.closed).code).toBe(1000);
    expect(await settledNow(reads)).toEqual([
      { done: false, value: { type: "said", nick: "a", text: "first" } },
      { rejected: new SocketMessageError("<html>not json") },
      { done: true, value: undefined },
      { done: true, value: undefined },
    ]);
  });

  it("ends the loop with a SocketMessageError for a binary message, never handing out a Blob", async () => {
    const { messages, failure, close } = await readAll("binary");
    expect(messages).toEqual([]);
    expect(failure).toBeInstanceOf(SocketMessageError);
    expect((failure as Error).message).toBe(
      "A message is binary (3 bytes), not the JSON text the route sends.",
    );
    expect(close.code).toBe(1000);
  });

  it("gives an upgrade answered by a proxy's HTML 502 as a close before open, 1006", async () => {
    const proxy = createSocketClient({ baseUrl: server.url });
    expect(await proxy.chat({ room: "lobby", nick: "502" })).toEqual({
      ok: false,
      close: { code: 1006, reason: "", wasClean: false },
    });
  });

  it("ends a connect whose upgrade is never answered when its signal aborts, leaving nothing open", async () => {
    const baseline = openSockets();
    const proxy = createSocketClient({ baseUrl: server.url });
    const abort = new AbortController();
    const connecting = proxy.chat({ room: "lobby", nick: "never" }, { signal: abort.signal });
    await waitFor("the upgrade reached the server", () =>
      server.requests("/chat/lobby?nick=never") > 0 ? true : undefined,
    );
    abort.abort();
    expect(await connecting).toEqual({ ok: false, close: { code: 1006, reason: "", wasClean: false } });
    await nothingLeftOpen(baseline);
  });

  it("closes an open socket when its signal aborts, ending the loop", async () => {
    const abort = new AbortController();
    const opened = await socketClient.chat({ room: "lobby", nick: "quiet" }, { signal: abort.signal });
    if (!opened.ok) throw new Error("not open");
    const messages: unknown[] = [];
    setImmediate(() => abort.abort());
    for await (const message of opened.socket) messages.push(message);
    expect(messages).toEqual([]);
    expect(await opened.socket.closed).toEqual({ code: 1000, reason: "", wasClean: true });
  });

  it("gives odd close codes as values: a private 4000, 1011, and 1006 when the server vanishes", async () => {
    expect(await readAll("code-4000")).toEqual({
      messages: [],
      failure: undefined,
      close: { code: 4000, reason: "custom", wasClean: true },
    });
    expect(await readAll("code-1011")).toEqual({
      messages: [],
      failure: undefined,
      close: { code: 1011, reason: "internal error", wasClean: true },
    });
    expect(await readAll("vanish")).toEqual({
      messages: [{ type: "said", nick: "a", text: "bye" }],
      failure: undefined,
      close: { code: 1006, reason: "", wasClean: false },
    });
  });
});
