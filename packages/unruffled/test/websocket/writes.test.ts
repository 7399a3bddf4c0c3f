import type { Socket } from "node:net";
import { createApp } from "unruffled";
import { path } from "unruffled/route";
import { websocket } from "unruffled/websocket";
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
const app = createApp({ routes: [path("/echo", { websocket: echo })] });
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
});
