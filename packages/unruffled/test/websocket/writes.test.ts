import type { Socket } from "node:net";
import { createApp } from "unruffled";
import { path } from "unruffled/route";
import { publish, websocket } from "unruffled/websocket";
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
const feed = websocket({
  inbound: z.object({ seq: z.int() }),
  outbound: z.object({ seq: z.int() }),
  async handler(socket) {
    await socket.subscribe("news");
    await socket.send({ seq: -1 });
    for await (const _message of socket) {
      // A receiver only.
    }
  },
});
const app = createApp({
  routes: [path("/echo", { websocket: echo }), path("/feed", { websocket: feed })],
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
});
