import { readdirSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createApp } from "unruffled";
import { path } from "unruffled/route";
import { websocket } from "unruffled/websocket";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { frame, type RawWebSocket, rawWebSocket } from "./raw-websocket.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
/** What the process holds after collection: the JavaScript heap and the buffers outside it. */
function retained(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

const TEXT = 0x1;
const CONTINUATION = 0x0;
const PING = 0x9;

const echo = websocket({
  inbound: z.object({ text: z.string() }),
  outbound: z.object({ text: z.string() }),
  maxPayload: 64 * 1024,
  async handler(socket) {
    for await (const message of socket) await socket.send(message);
  },
});
const app = createApp({ routes: [path("/echo", { websocket: echo })] });
let port: number;
beforeAll(async () => {
  await app.listen({ port: 0 });
  port = app.address()!.port;
});
afterAll(() => app.close());

/** Sends `bytes` on a fresh socket and resolves to the code of the server's close frame, once the connection ended. */
async function closeCodeAfter(bytes: Buffer | Buffer[]): Promise<number | undefined> {
  const raw = await rawWebSocket(port, "/echo");
  expect(raw.head.split("\r\n")[0]).toBe("HTTP/1.1 101 Switching Protocols");
  for (const chunk of Array.isArray(bytes) ? bytes : [bytes]) {
    if (raw.socket.destroyed) break;
    raw.socket.write(chunk);
  }
  await raw.until(() => raw.closeCode() !== undefined);
  raw.socket.destroy();
  return raw.closeCode();
}

/** The server still serves a well-behaved client after the last hostile one. */
async function stillServes(): Promise<void> {
  const raw = await rawWebSocket(port, "/echo");
  raw.socket.write(frame(TEXT, Buffer.from(JSON.stringify({ text: "still here" }))));
  await raw.until(() => raw.bytes().includes("still here"));
  raw.socket.destroy();
}

describe("hostile WebSocket input", () => {
  it("a flood of fragments past maxPayload closes with 1009", async () => {
    const fragments = [frame(TEXT, Buffer.from("{"), { fin: false })];
    const piece = Buffer.alloc(1024, 0x20);
    for (let index = 0; index < 100; index++) fragments.push(frame(CONTINUATION, piece, { fin: false }));
    expect(await closeCodeAfter(fragments)).toBe(1009);
    await stillServes();
  });

  it("thousands of tiny fragments under the limit are one message", async () => {
    const raw = await rawWebSocket(port, "/echo");
    const text = JSON.stringify({ text: "x".repeat(5_000) });
    const chunks = [frame(TEXT, Buffer.from(text.slice(0, 1)), { fin: false })];
    for (let index = 1; index < text.length - 1; index++) {
      chunks.push(frame(CONTINUATION, Buffer.from(text[index]!), { fin: false }));
    }
    chunks.push(frame(CONTINUATION, Buffer.from(text.slice(-1))));
    raw.socket.write(Buffer.concat(chunks));
    await raw.until(() => raw.bytes().length >= text.length + 4);
    expect(raw.bytes().subarray(4).toString()).toBe(text);
    raw.socket.destroy();
  });

  it("a frame announcing more than maxPayload closes with 1009 before its payload", async () => {
    const header = Buffer.from([0x81, 0xff, 0, 0, 1, 0, 0, 0, 0, 0, 1, 2, 3, 4]); // 2^40 bytes, masked
    expect(await closeCodeAfter(header)).toBe(1009);
    await stillServes();
  });

  it("invalid UTF-8 in a text message closes with 1007", async () => {
    expect(await closeCodeAfter(frame(TEXT, Buffer.from([0x7b, 0xc3, 0x28, 0x7d])))).toBe(1007);
    await stillServes();
  });

  it("a control frame over 125 bytes closes with 1002", async () => {
    expect(await closeCodeAfter(frame(PING, Buffer.alloc(200)))).toBe(1002);
    await stillServes();
  });

  it("an unmasked client frame closes with 1002", async () => {
    const unmasked = frame(TEXT, Buffer.from(JSON.stringify({ text: "hi" })), { masked: false });
    expect(await closeCodeAfter(unmasked)).toBe(1002);
    await stillServes();
  });

  it("2,000 idle sockets: served, then gone, leaving no descriptor, timer or socket behind", async () => {
    const openDescriptors = () => readdirSync("/proc/self/fd").length;
    const resources = () =>
      process
        .getActiveResourcesInfo()
        .filter((kind) => kind !== "TTYWrap")
        .sort();
    const descriptorsBefore = openDescriptors();
    const memoryBefore = retained();
    const resourcesBefore = resources();
    const sockets: RawWebSocket[] = [];
    for (let batch = 0; batch < 20; batch++) {
      sockets.push(...(await Promise.all(Array.from({ length: 100 }, () => rawWebSocket(port, "/echo")))));
    }
    expect(sockets.every((raw) => raw.head.startsWith("HTTP/1.1 101 "))).toBe(true);
    // Both ends of 2,000 sockets live in this process: under 32 KB for each pair.
    expect(retained() - memoryBefore).toBeLessThan(2_000 * 32 * 1024);
    await stillServes();
    for (const raw of sockets) raw.socket.destroy();
    await Promise.all(sockets.map((raw) => raw.ended));
    // The server notices each client gone on its own side; wait for that, not for a time.
    // At most as many as before (an earlier test's last socket may have closed meanwhile).
    await expect.poll(() => openDescriptors(), { timeout: 30_000 }).toBeLessThanOrEqual(descriptorsBefore);
    // Nothing open now that was not open before: no socket, no timer (the heartbeat's included).
    const beyondBefore = () => {
      const left = [...resourcesBefore];
      return resources().filter((kind) => {
        const index = left.indexOf(kind);
        if (index >= 0) left.splice(index, 1);
        return index < 0;
      });
    };
    await expect.poll(beyondBefore, { timeout: 30_000 }).toEqual([]);
  }, 120_000);
});
