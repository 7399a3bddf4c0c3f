import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createApp } from "unruffled";
import { path } from "unruffled/route";
import { websocket } from "unruffled/websocket";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { rawWebSocket } from "./raw-websocket.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** What the process holds after collection: the JavaScript heap and the buffers outside it. */
function retained(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

const MiB = 1024 * 1024;
const CHUNK = "x".repeat(64 * 1024);
const Outbound = z.object({ seq: z.int(), chunk: z.string() });
const Inbound = z.object({ type: z.literal("noop") });

describe("backpressure", () => {
  it("holds a client that never reads to twice the high-water mark plus 10 MB while the server pushes 100 MB", async () => {
    const total = 100 * MiB;
    const messages = Math.ceil(total / CHUNK.length);
    const state = { blocked: false, sent: 0, peak: 0, baseline: 0, finished: false };
    const push = websocket({
      inbound: Inbound,
      outbound: Outbound,
      highWaterMark: MiB,
      async handler(socket) {
        for (let seq = 0; seq < messages; seq++) {
          const sent = socket.send({ seq, chunk: CHUNK });
          if (socket.bufferedAmount >= MiB) state.blocked = true;
          expect(await sent).toBe(true);
          state.sent++;
          if (seq % 64 === 0) state.peak = Math.max(state.peak, retained() - state.baseline);
        }
        state.finished = true;
      },
    });
    const app = createApp({ routes: [path("/push", { websocket: push })] });
    await app.listen({ port: 0 });
    state.baseline = retained();
    const client = await rawWebSocket(app.address()!.port, "/push", { read: false, discard: true });
    await expect.poll(() => state.blocked, { timeout: 30_000 }).toBe(true);
    // The server waits on the peer: what it holds is the mark and the kernel's buffers, not 100 MB.
    state.peak = Math.max(state.peak, retained() - state.baseline);
    expect(state.sent).toBeLessThan(messages / 4);
    client.socket.resume();
    await client.until(() => state.finished && client.received() >= total);
    expect(state.sent).toBe(messages);
    expect(state.peak).toBeLessThan(2 * MiB + 10 * MiB);
    client.socket.destroy();
    await app.close();
  }, 120_000);

  it("resolves a waiting send() once the buffer is below the low-water mark, a quarter of the high one by default", async () => {
    const mark = 8 * MiB;
    const state = { blocked: false, waited: 0, resolvedAt: [] as number[], finished: false };
    // 64 MB of 16 KB messages: past the mark and the kernel's buffers (a few MB) by far.
    const chunk = "x".repeat(16 * 1024);
    const route = websocket({
      inbound: Inbound,
      outbound: Outbound,
      highWaterMark: mark,
      async handler(socket) {
        for (let seq = 0; seq < 4_000; seq++) {
          const sent = socket.send({ seq, chunk });
          const waiting = socket.bufferedAmount >= mark;
          if (waiting) state.blocked = true;
          expect(await sent).toBe(true);
          // Nothing is sent between the resolution and here: the buffer can only have shrunk.
          if (waiting) {
            state.waited++;
            state.resolvedAt.push(socket.bufferedAmount);
          }
        }
        state.finished = true;
      },
    });
    const app = createApp({ routes: [path("/wait", { websocket: route })] });
    await app.listen({ port: 0 });
    const client = await rawWebSocket(app.address()!.port, "/wait", { read: false, discard: true });
    // The client reads nothing until a send() waits on it, then one chunk a turn: the server's
    // buffer drains a little at a time, and a send could resolve anywhere below the high mark.
    await expect.poll(() => state.blocked, { timeout: 30_000 }).toBe(true);
    client.socket.on("data", () => {
      client.socket.pause();
      setImmediate(() => client.socket.resume());
    });
    client.socket.resume();
    await expect.poll(() => state.finished, { timeout: 30_000 }).toBe(true);
    expect(state.waited).toBeGreaterThan(0);
    expect(state.resolvedAt.filter((buffered) => buffered > mark / 4)).toEqual([]);
    client.socket.destroy();
    await app.close();
  }, 60_000);

  it('drops messages past the high-water mark under the "drop" policy: send() resolves to false', async () => {
    const results: boolean[] = [];
    const drop = websocket({
      inbound: Inbound,
      outbound: Outbound,
      highWaterMark: 256 * 1024,
      onBackpressure: "drop",
      async handler(socket) {
        for (let seq = 0; seq < 200; seq++) results.push(await socket.send({ seq, chunk: CHUNK }));
      },
    });
    const app = createApp({ routes: [path("/drop", { websocket: drop })] });
    await app.listen({ port: 0 });
    const client = await rawWebSocket(app.address()!.port, "/drop", { read: false, discard: true });
    await expect.poll(() => results.length).toBe(200);
    expect(results.filter((sent) => !sent).length).toBeGreaterThan(0);
    expect(results[0]).toBe(true);
    client.socket.destroy();
    await app.close();
  });

  it('closes with 1013 past the high-water mark under the "close" policy', async () => {
    const results: boolean[] = [];
    const close = websocket({
      inbound: Inbound,
      outbound: Outbound,
      highWaterMark: 256 * 1024,
      onBackpressure: "close",
      async handler(socket) {
        for (let seq = 0; seq < 200 && !socket.closed; seq++)
          results.push(await socket.send({ seq, chunk: CHUNK }));
      },
    });
    const app = createApp({ routes: [path("/close", { websocket: close })] });
    await app.listen({ port: 0 });
    const client = await rawWebSocket(app.address()!.port, "/close", { read: false });
    await expect.poll(() => results.includes(false)).toBe(true);
    client.socket.resume();
    await client.until(() => client.closeCode() !== undefined);
    expect(client.closeCode()).toBe(1013);
    client.socket.destroy();
    await app.close();
  });
});
