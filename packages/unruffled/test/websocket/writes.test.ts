import type { Socket } from "node:net";
import { createApp } from "unruffled";
import { path } from "unruffled/route";
import { publish, type ServerWebSocket, websocket } from "unruffled/websocket";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { frame, rawWebSocket } from "./raw-websocket.ts";

const TEXT = 0x1;

const echo = websocket({
  inbound: z.object({ seq: z.int() }),
  outbound: z.object({ seq: z.int() }),
  async handler(socket) {
    for await (const message of socket) await socket.send(message);
  },
});
// Subscribes its socket, says so with { seq: -1 }, and stays open.
function feedOptions() {
  return {
    inbound: z.object({ seq: z.int() }),
    outbound: z.object({ seq: z.int(), text: z.string().optional() }),
    async handler(socket: ServerWebSocket<{ seq: number }, { seq: number; text?: string }>) {
      await socket.subscribe("news");
      await socket.send({ seq: -1 });
      for await (const _message of socket) {
        // A receiver only.
      }
    },
  };
}
const feed = websocket(feedOptions());
// The same with a small high-water mark (8 KB): a turn's burst of topic messages passes it.
const smallFeed = websocket({ ...feedOptions(), highWaterMark: 8_192 });
const app = createApp({
  routes: [
    path("/echo", { websocket: echo }),
    path("/feed", { websocket: feed }),
    path("/small-feed", { websocket: smallFeed }),
  ],
});
// The server's side of each connection, with the writes it hands the kernel counted.
const writes = { count: 0 };
let port: number;
beforeAll(async () => {
  const server = await app.listen({ port: 0 });
  server.on("connection", (socket: Socket & { _write: Function; _writev: Function }) => {
    const [write, writev] = [socket._write, socket._writev];
    socket._write = function (...args: unknown[]) {
      writes.count++;
      return write.apply(this, args);
    };
    socket._writev = function (...args: unknown[]) {
      writes.count++;
      return writev.apply(this, args);
    };
  });
  port = app.address()!.port;
});
afterAll(() => app.close());

/** The server's text frames among `bytes` (unmasked, short): their payloads. */
function textFrames(bytes: Buffer): string[] {
  const payloads: string[] = [];
  let offset = 0;
  while (offset + 2 <= bytes.length) {
    const length = bytes[offset + 1]! & 0x7f;
    if (offset + 2 + length > bytes.length) break;
    if ((bytes[offset]! & 0x0f) === TEXT) {
      payloads.push(bytes.subarray(offset + 2, offset + 2 + length).toString());
    }
    offset += 2 + length;
  }
  return payloads;
}

/** The server's text frames of 126 to 65,535 bytes among `bytes`: their payloads. */
function longFrames(bytes: Buffer): string[] {
  const payloads: string[] = [];
  let offset = 0;
  while (offset + 2 <= bytes.length) {
    let length = bytes[offset + 1]! & 0x7f;
    let header = 2;
    if (length === 126) {
      if (offset + 4 > bytes.length) break;
      length = bytes.readUInt16BE(offset + 2);
      header = 4;
    }
    if (offset + header + length > bytes.length) break;
    if ((bytes[offset]! & 0x0f) === TEXT && header === 4) {
      payloads.push(bytes.subarray(offset + header, offset + header + length).toString());
    }
    offset += header + length;
  }
  return payloads;
}

describe("a socket's writes", () => {
  it("leave in one write for the answers to a burst of messages that arrived together", async () => {
    const raw = await rawWebSocket(port, "/echo");
    const burst = Array.from({ length: 10 }, (_, seq) => frame(TEXT, Buffer.from(JSON.stringify({ seq }))));
    writes.count = 0;
    raw.socket.write(Buffer.concat(burst));
    await raw.until(() => textFrames(raw.bytes()).length === 10);
    expect(textFrames(raw.bytes())).toEqual(Array.from({ length: 10 }, (_, seq) => JSON.stringify({ seq })));
    expect(writes.count).toBe(1);
    raw.socket.destroy();
  });

  it("leave in one write for the messages of a turn's publishes on a topic it follows", async () => {
    const raw = await rawWebSocket(port, "/feed");
    await raw.until(() => textFrames(raw.bytes()).length === 1);
    writes.count = 0;
    // Ten publishes in one turn, as a broadcast that fell behind makes them: one write, not ten.
    for (let seq = 0; seq < 10; seq++) void publish(app, feed, "news", { seq });
    await raw.until(() => textFrames(raw.bytes()).length === 11);
    expect(textFrames(raw.bytes())).toEqual(
      Array.from({ length: 11 }, (_, index) => JSON.stringify({ seq: index - 1 })),
    );
    expect(writes.count).toBe(1);
    raw.socket.destroy();
  });

  it("start leaving during a turn once it holds 64 KB, and all arrive in order", async () => {
    const raw = await rawWebSocket(port, "/feed");
    await raw.until(() => textFrames(raw.bytes()).length === 1);
    writes.count = 0;
    // 200 messages of about 1 KB in one synchronous stretch: 200 KB, three times the limit.
    const text = "x".repeat(1_000);
    for (let seq = 0; seq < 200; seq++) void publish(app, feed, "news", { seq, text });
    const writtenWithinTheTurn = writes.count;
    await raw.until(() => longFrames(raw.bytes()).length === 200);
    // Without the limit nothing is written before the turn ends (0); with it, every 64 KB.
    expect(writtenWithinTheTurn).toBeGreaterThan(0);
    expect(longFrames(raw.bytes()).map((payload) => JSON.parse(payload).seq)).toEqual(
      Array.from({ length: 200 }, (_, seq) => seq),
    );
    raw.socket.destroy();
  });

  it("close no socket for a turn's burst of topic messages past the high-water mark that the connection takes", async () => {
    const raw = await rawWebSocket(port, "/small-feed");
    await raw.until(() => textFrames(raw.bytes()).length === 1);
    // 24 messages of about 1 KB in one turn, three times the route's mark, to a client that reads.
    const text = "x".repeat(1_000);
    for (let seq = 0; seq < 24; seq++) void publish(app, smallFeed, "news", { seq, text });
    await raw.until(() => longFrames(raw.bytes()).length === 24 || raw.closeCode() !== undefined);
    expect(raw.closeCode()).toBeUndefined();
    expect(longFrames(raw.bytes()).map((payload) => JSON.parse(payload).seq)).toEqual(
      Array.from({ length: 24 }, (_, seq) => seq),
    );
    raw.socket.destroy();
  });
});
