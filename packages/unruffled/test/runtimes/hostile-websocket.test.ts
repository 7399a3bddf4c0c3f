// Hostile WebSocket clients against the WebSocket fixture app served by `unruffled serve` on Bun
// (Bun.serve's own WebSockets) and on Deno (Node's `http` and ws through Deno's Node
// compatibility, docs/runtimes.md), each in a process of its own: the frames of
// test/websocket/hostile.test.ts (there in process, on Node), a client that never reads while its
// route writes, and many sockets that vanish; then the process holds no more sockets or
// descriptors than before, and still serves.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { endProcessGroups } from "process-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frame, type RawWebSocket, rawWebSocket } from "../websocket/raw-websocket.ts";
import { type RuntimeName, type ServedApp, serveOn } from "./runtime-process.ts";

const fixture = fileURLToPath(new URL("./websocket-fixture-app.ts", import.meta.url));

const TEXT = 0x1;
const CONTINUATION = 0x0;
const PING = 0x9;
// A hang is a failure, but a busy machine is not a hang: generous.
const POLL = { timeout: 30_000, interval: 100 };

afterAll(endProcessGroups);

describe.each(["bun", "deno"] as const satisfies readonly RuntimeName[])("on %s", (runtime) => {
  let served: ServedApp;
  const descriptors = () => readdirSync(`/proc/${served.child.pid}/fd`).length;
  // A server that stopped answering fails the poll that asks it, rather than hanging the test.
  const ask = (path: string) => fetch(`${served.origin}${path}`, { signal: AbortSignal.timeout(10_000) });
  const sockets = async () => ((await (await ask("/stats")).json()) as { sockets: number }).sockets;
  const journal = async () => (await (await ask("/journal")).text()).split("\n");

  beforeAll(async () => {
    served = await serveOn(runtime, fixture);
  }, 60_000);

  /** Sends hand-made frames to /small (maxPayload 64) and resolves to the code of the server's close frame. */
  async function closeCodeAfter(frames: Buffer[], path = "/small"): Promise<number | undefined> {
    const raw = await rawWebSocket(served.port, path);
    expect(raw.head.split("\r\n")[0]).toBe("HTTP/1.1 101 Switching Protocols");
    for (const bytes of frames) if (!raw.socket.destroyed) raw.socket.write(bytes);
    await raw.until(() => raw.closeCode() !== undefined);
    raw.socket.destroy();
    return raw.closeCode();
  }

  /** The echo of one message on a fresh socket: the server still serves. */
  async function echoed(text: string): Promise<string> {
    const raw = await rawWebSocket(served.port, "/beat-many");
    raw.socket.write(frame(TEXT, Buffer.from(JSON.stringify({ text }))));
    await raw.until(() => raw.bytes().includes(text));
    raw.socket.destroy();
    return raw.bytes().subarray(2).toString();
  }

  it.each([
    // 2^40 bytes announced, masked, no payload sent: refused on the header.
    [
      "a frame announcing more than any route's maxPayload",
      1009,
      () => [Buffer.from([0x81, 0xff, 0, 0, 1, 0, 0, 0, 0, 0, 1, 2, 3, 4])],
    ],
    [
      "a flood of fragments past every route's maxPayload",
      1009,
      () => [
        frame(TEXT, Buffer.from("{"), { fin: false }),
        ...Array.from({ length: 1100 }, () => frame(CONTINUATION, Buffer.alloc(1024, 0x20), { fin: false })),
      ],
    ],
    ["invalid UTF-8 in a text message", 1007, () => [frame(TEXT, Buffer.from([0x7b, 0xc3, 0x28, 0x7d]))]],
    ["a control frame over 125 bytes", 1002, () => [frame(PING, Buffer.alloc(200))]],
    ["an unmasked client frame", 1002, () => [frame(TEXT, Buffer.from('{"text":"hi"}'), { masked: false })]],
  ] as const)("closes on %s with %i, and serves the next client", async (_case, code, frames) => {
    expect(await closeCodeAfter([...frames()])).toBe(code);
    expect(await echoed("still here")).toBe('{"text":"still here"}');
  });

  it("reads thousands of one-byte fragments under the limit as one message", async () => {
    const raw = await rawWebSocket(served.port, "/beat-many");
    const text = JSON.stringify({ text: "x".repeat(5_000) });
    const chunks = [frame(TEXT, Buffer.from(text.slice(0, 1)), { fin: false })];
    for (let index = 1; index < text.length - 1; index++) {
      chunks.push(frame(CONTINUATION, Buffer.from(text[index]!), { fin: false }));
    }
    chunks.push(frame(CONTINUATION, Buffer.from(text.slice(-1))));
    raw.socket.write(Buffer.concat(chunks));
    // The echo: a 4-byte header (126 and a 16-bit length), then the text.
    await raw.until(() => raw.bytes().length >= text.length + 4);
    expect(raw.bytes().subarray(4).toString()).toBe(text);
    raw.socket.destroy();
  });

  it("resolves a send waiting on a client that never reads to false once it leaves (onBackpressure: wait)", {
    timeout: 90_000,
  }, async () => {
    const before = await sockets();
    const raw = await rawWebSocket(served.port, "/waiting", { read: false });
    await expect.poll(sockets, POLL).toBe(before + 1);
    // Once the route has filled the connection past its high-water mark, the client leaves unread.
    await expect.poll(journal, POLL).toContain("waiting send waits for the peer");
    raw.socket.destroy();
    await expect.poll(journal, POLL).toContain("waiting send resolved false after some");
    await expect.poll(sockets, POLL).toBe(before);
    expect(await echoed("still here")).toBe('{"text":"still here"}');
  });

  // Bun ends a close the server starts at once: the 1013 frame is written after what the client has
  // not read, and the socket is given up. ws (Node, and Deno through its Node compatibility) waits
  // for the peer's close frame up to 30 s, then cuts the connection, the 1013 frame still unread.
  it("closes a client that never reads while its route writes (onBackpressure: close): 1013 on Bun, cut after ws's 30 s on Deno", {
    timeout: 120_000,
  }, async () => {
    const raw: RawWebSocket = await rawWebSocket(served.port, "/impatient", { read: false });
    const before = await sockets();
    raw.socket.write(frame(TEXT, Buffer.from(JSON.stringify({ count: 50_000 }))));
    // The server gives the socket up on its side, while the client still reads nothing.
    await expect.poll(sockets, { ...POLL, timeout: 90_000 }).toBeLessThan(before);
    raw.socket.resume();
    await raw.ended;
    expect(raw.closeCode()).toBe(runtime === "bun" ? 1013 : undefined);
    expect(await echoed("still here")).toBe('{"text":"still here"}');
  });

  it("leaves no socket and no descriptor behind once 300 idle clients vanished", {
    timeout: 120_000,
  }, async () => {
    await expect.poll(sockets, POLL).toBe(0);
    const baseline = descriptors();
    const clients: RawWebSocket[] = [];
    for (let batch = 0; batch < 3; batch++) {
      clients.push(
        ...(await Promise.all(Array.from({ length: 100 }, () => rawWebSocket(served.port, "/beat-many")))),
      );
    }
    await expect.poll(sockets, POLL).toBe(300);
    for (const client of clients) client.socket.destroy();
    await expect.poll(sockets, POLL).toBe(0);
    await expect.poll(descriptors, POLL).toBeLessThanOrEqual(baseline);
    expect(await echoed("after the crowd")).toBe('{"text":"after the crowd"}');
    expect(served.output.stderr).not.toMatch(/unhandled|uncaught|TypeError|RangeError/i);
  });
});
