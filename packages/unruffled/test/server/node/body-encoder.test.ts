import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { BodyEncoder, MIN_ENCODED_CHARS, SCRATCH_BYTES } from "../../../src/server/node/body-encoder.ts";

const LONG = `${"Zoë ".repeat(MIN_ENCODED_CHARS / 4)}€😀`;

describe("BodyEncoder.encode", () => {
  it("gives a large body's UTF-8 bytes", () => {
    const bytes = new BodyEncoder().encode(LONG);
    expect(bytes?.equals(Buffer.from(LONG, "utf8"))).toBe(true);
  });

  it("writes a lone surrogate as U+FFFD, as Node does with the string", () => {
    const text = `${"x".repeat(MIN_ENCODED_CHARS)}\ud800`;
    const bytes = new BodyEncoder().encode(text)!;
    expect(bytes.subarray(-3)).toEqual(Buffer.from([0xef, 0xbf, 0xbd]));
    expect(bytes.length).toBe(Buffer.byteLength(text));
  });

  it("leaves a body shorter than MIN_ENCODED_CHARS to Node", () => {
    expect(new BodyEncoder().encode("x".repeat(MIN_ENCODED_CHARS - 1))).toBeUndefined();
  });

  it("leaves a body longer than SCRATCH_BYTES characters to Node", () => {
    expect(new BodyEncoder().encode("x".repeat(SCRATCH_BYTES + 1))).toBeUndefined();
  });

  it("leaves a body whose UTF-8 is longer than SCRATCH_BYTES to Node", () => {
    expect(new BodyEncoder().encode("€".repeat(SCRATCH_BYTES / 3 + 1))).toBeUndefined();
  });

  it("leaves a body that ends within 3 bytes of the buffer's end to Node, where a character may be cut", () => {
    const encoder = new BodyEncoder();
    // 65,532 bytes fit for certain; one more ASCII byte could be the first of a cut 4-byte character.
    expect(encoder.encode("x".repeat(SCRATCH_BYTES - 4))?.length).toBe(SCRATCH_BYTES - 4);
    expect(encoder.encode("x".repeat(SCRATCH_BYTES - 3))).toBeUndefined();
    expect(encoder.encode(`${"x".repeat(SCRATCH_BYTES - 5)}😀`)).toBeUndefined();
  });
});

// release() decides over a real response, written to a real socket.
const servers: ReturnType<typeof createServer>[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

/** A server that answers each request with `answer(res)`, on a loopback port. */
async function serveWith(answer: (res: ServerResponse) => void): Promise<string> {
  const server = createServer((_req, res) => answer(res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("BodyEncoder.release", () => {
  it("uses the buffer again once an answer went to the kernel within res.end()", async () => {
    const encoder = new BodyEncoder();
    const buffers: ArrayBufferLike[] = [];
    const url = await serveWith((res) => {
      const bytes = encoder.encode(LONG)!;
      buffers.push(bytes.buffer);
      res.end(bytes);
      encoder.release(res, bytes);
    });
    for (let index = 0; index < 3; index++) expect(await (await fetch(url)).text()).toBe(LONG);
    expect(new Set(buffers).size).toBe(1);
  });

  it("keeps no buffer that a slow write still holds, and encodes the next body elsewhere", async () => {
    const encoder = new BodyEncoder();
    // More than the kernel takes at once: what follows waits in the socket's queue.
    const ahead = Buffer.alloc(32 * 1024 * 1024, "a");
    let held: Buffer | undefined;
    let next: Buffer | undefined;
    const url = await serveWith((res) => {
      held = encoder.encode(LONG)!;
      res.writeHead(200, { "content-length": ahead.length + held.length });
      res.write(ahead);
      res.end(held);
      encoder.release(res, held);
      // Were the held buffer used again, this would overwrite the answer still waiting.
      next = encoder.encode("#".repeat(LONG.length))!;
    });
    const received = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(received.length).toBe(ahead.length + Buffer.byteLength(LONG));
    expect(received.subarray(ahead.length).toString("utf8")).toBe(LONG);
    expect(next!.buffer).not.toBe(held!.buffer);
  });
});
