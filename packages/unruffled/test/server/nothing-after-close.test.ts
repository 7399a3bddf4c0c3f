import { once } from "node:events";
import { readdirSync } from "node:fs";
import { connect } from "node:net";
import { waitFor } from "process-support";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openRaw } from "../support/raw-http.ts";
import { serve } from "../support/serve.ts";

// RFC 9112 §9.6: a server that sent "Connection: close" must not process further requests on that
// connection. The requests pipelined behind such an answer have side effects (a counter), so any
// one of them that reached the app shows.

const PIPELINED = 50;

/**
 * An app whose /count endpoint counts its calls, whose /gate answers once `gate.open()` is called,
 * and whose other endpoints a test refuses or closes.
 */
async function counterServer() {
  const counter = { calls: 0 };
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let enter!: () => void;
  const gate = { open, entered: new Promise<void>((resolve) => (enter = resolve)) };
  const gated = endpoint({
    returns: JsonResponse,
    handler: async () => {
      enter();
      await opened;
      return new JsonResponse({ gate: "open" });
    },
  });
  const count = endpoint({
    returns: JsonResponse,
    handler: () => new JsonResponse({ calls: ++counter.calls }),
  });
  const json = endpoint({
    params: { body: p.Json(z.object({ text: z.string() })) },
    returns: JsonResponse,
    handler: (_request, { body }) => new JsonResponse({ length: body.text.length }),
  });
  const upload = endpoint({
    params: { file: p.File() },
    returns: JsonResponse,
    handler: async (_request, { file }) => new JsonResponse({ size: (await file.read()).length }),
  });
  const goodbye = endpoint({
    returns: JsonResponse,
    handler: () => new JsonResponse({ bye: true }, { headers: { connection: "close" } }),
  });
  const server = await serve(
    [
      path("/count", { endpoint: count, methods: ["POST"] }),
      path("/gate", { endpoint: gated }),
      path("/json", { endpoint: json, methods: ["POST"] }),
      path("/upload", { endpoint: upload, methods: ["POST"] }),
      path("/goodbye", { endpoint: goodbye, methods: ["POST"] }),
    ],
    { settings: { LIMITS: { body_size: 1024, file_size: 1024, upload_size: 4096 } } },
  );
  return { server, counter, gate };
}

/** `PIPELINED` counter calls, each with a small JSON body, as one string. */
function counterCalls(): string {
  return `POST /count HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`.repeat(
    PIPELINED,
  );
}

/** Sends `bytes` on one connection and resolves with all the server sent once it closed. */
async function exchange(port: number, bytes: string): Promise<string> {
  const connection = await openRaw(port);
  await connection.write(bytes);
  return connection.closed(10_000);
}

/** How many answers a raw exchange holds, by their status lines. */
function statusLines(raw: string): string[] {
  return raw.match(/HTTP\/1\.1 \d{3} [^\r]*/g) ?? [];
}

/** The process's open descriptors: both ends of every loopback connection of the test. */
function openDescriptors(): number {
  return readdirSync("/proc/self/fd").length;
}

const oversizedJson = JSON.stringify({ text: "x".repeat(4000) });

/** A JSON request whose announced length the server refuses with a 413 at once. */
const REFUSED_HEAD =
  "POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n";

/**
 * A client that keeps its side open after the server's FIN (a Node socket otherwise ends its own
 * at once, which is "the client stops"), as a client still sending its body does.
 */
async function halfOpenClient(port: number) {
  const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
  socket.on("error", () => {});
  await once(socket, "connect");
  let buffer = "";
  const arrived: (() => void)[] = [];
  socket.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("latin1");
    for (const wake of arrived.splice(0)) wake();
  });
  return {
    socket,
    received: () => buffer,
    closed: new Promise<void>((resolve) => socket.once("close", () => resolve())),
    async waitFor(text: string): Promise<void> {
      while (!buffer.includes(text)) await new Promise<void>((resolve) => arrived.push(resolve));
    },
    /** Resolves false once the server has closed the connection. */
    write: (data: Buffer) =>
      new Promise<boolean>((resolve) => {
        if (socket.destroyed) return resolve(false);
        socket.write(data, (error) => resolve(!error));
      }),
  };
}

describe("nothing after close", () => {
  it("runs no request pipelined behind a JSON body refused for its announced length", async () => {
    const { server, counter } = await counterServer();
    const raw = await exchange(
      server.port,
      `POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${oversizedJson.length}\r\n\r\n${oversizedJson}${counterCalls()}`,
    );
    expect(statusLines(raw)).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    expect(raw).toContain("\r\nconnection: close\r\n");
    expect(raw.endsWith('{"detail":"Request body is larger than the limit of 1024 bytes"}')).toBe(true);
    expect(counter.calls).toBe(0);
  });

  it("runs no request pipelined behind a chunked body refused part-way", async () => {
    const { server, counter } = await counterServer();
    const chunk = "x".repeat(800);
    const raw = await exchange(
      server.port,
      "POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
        `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(3) +
        `0\r\n\r\n${counterCalls()}`,
    );
    expect(statusLines(raw)).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    expect(raw.endsWith('{"detail":"Request body is larger than the limit of 1024 bytes"}')).toBe(true);
    expect(counter.calls).toBe(0);
  });

  it("runs no request pipelined behind a multipart body refused for a file past its limit", async () => {
    const { server, counter } = await counterServer();
    const multipart =
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n' +
      `${"y".repeat(2000)}\r\n--b--\r\n`;
    const raw = await exchange(
      server.port,
      `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${multipart.length}\r\n\r\n${multipart}${counterCalls()}`,
    );
    expect(statusLines(raw)).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    expect(raw.endsWith('{"detail":"File \\"file\\" is larger than the limit of 1024 bytes"}')).toBe(true);
    expect(counter.calls).toBe(0);
  });

  it("runs no request pipelined behind an answer whose handler closes the connection", async () => {
    const { server, counter } = await counterServer();
    const raw = await exchange(
      server.port,
      `POST /goodbye HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n${counterCalls()}`,
    );
    expect(statusLines(raw)).toEqual(["HTTP/1.1 200 OK"]);
    expect(raw.endsWith('{"bye":true}')).toBe(true);
    expect(counter.calls).toBe(0);
  });

  it("runs no request sent behind a refused body after its 413 was answered", async () => {
    const { server, counter } = await counterServer();
    const connection = await openRaw(server.port);
    await connection.write(
      "POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n",
    );
    await connection.waitFor("limit of 1024 bytes");
    await connection.write(`${"z".repeat(10_000)}${counterCalls()}`);
    const raw = await connection.closed(10_000);
    expect(statusLines(raw)).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    expect(counter.calls).toBe(0);
  });

  it("stops taking the bytes of a client that keeps sending after its 413: closed after 4 MiB more", async () => {
    // docs/settings.md: what still arrives is dropped until the client stops, 2 s pass or 4 MiB
    // more came. This client keeps its side open and never stops: it is cut off long before 64 MiB.
    const { server, counter } = await counterServer();
    const client = await halfOpenClient(server.port);
    client.socket.write(REFUSED_HEAD);
    await client.waitFor("limit of 1024 bytes");
    const chunk = Buffer.alloc(256 * 1024, "z");
    let sent = 0;
    while (sent < 64 * 1024 * 1024 && (await client.write(chunk))) sent += chunk.length;
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    await client.closed;
    expect(statusLines(client.received())).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    expect(counter.calls).toBe(0);
  });

  it("cuts off, 2 s after its 413, a client that trickles the rest of its body", async () => {
    // A byte at a time: never the 4 MiB, so only the 2 s end the connection.
    const { server, counter } = await counterServer();
    const client = await halfOpenClient(server.port);
    client.socket.write(REFUSED_HEAD);
    await client.waitFor("limit of 1024 bytes");
    let sent = 0;
    while (await client.write(Buffer.from("z"))) {
      sent++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.closed;
    expect(sent).toBeGreaterThan(0);
    expect(statusLines(client.received())).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    expect(counter.calls).toBe(0);
  });

  it("still runs pipelined requests in order, one after another, on a connection that stays open", async () => {
    const { server, counter } = await counterServer();
    const raw = await exchange(
      server.port,
      `${counterCalls()}POST /count HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
    );
    expect(statusLines(raw)).toEqual(Array(PIPELINED + 1).fill("HTTP/1.1 200 OK"));
    const bodies = raw.match(/\{"calls":\d+\}/g);
    expect(bodies).toEqual(Array.from({ length: PIPELINED + 1 }, (_, index) => `{"calls":${index + 1}}`));
    expect(counter.calls).toBe(PIPELINED + 1);
  });

  it("runs a pipelined request only once the answer before it is written", async () => {
    const { server, counter, gate } = await counterServer();
    const connection = await openRaw(server.port);
    await connection.write(
      "GET /gate HTTP/1.1\r\nHost: x\r\n\r\n" +
        "POST /count HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
    );
    await gate.entered;
    // A whole exchange on another connection: the pipelined call, parsed long before, still waits.
    expect((await server.fetch("/missing")).status).toBe(404);
    expect(counter.calls).toBe(0);
    gate.open();
    const raw = await connection.closed(10_000);
    expect(statusLines(raw)).toEqual(["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"]);
    expect(raw.match(/\{"[a-z]+":[^}]+\}/g)).toEqual(['{"gate":"open"}', '{"calls":1}']);
  });

  it("leaves no connection or descriptor behind once the closed connections are gone", async () => {
    const { server, counter } = await counterServer();
    // A first exchange opens what stays (the multipart parser's module, the server's first socket).
    await exchange(
      server.port,
      `POST /goodbye HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n${counterCalls()}`,
    );
    const baseline = openDescriptors();
    const refused = `POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${oversizedJson.length}\r\n\r\n${oversizedJson}${counterCalls()}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => exchange(server.port, refused)));
    for (const raw of answers) expect(statusLines(raw)).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    await waitFor("the server's sockets closed", () => (openDescriptors() <= baseline ? true : undefined), {
      timeoutMs: 30_000,
    }).catch(() => {});
    // At most the baseline: a socket of the first exchange (or an earlier test's) may still have been
    // closing when it was read, and may be gone by now on a busy machine.
    expect(openDescriptors()).toBeLessThanOrEqual(baseline);
    expect(counter.calls).toBe(0);
  });
});
