// A WebSocket client written byte by byte, for what a well-behaved client never does: not reading,
// not answering pings, unmasked frames, floods of fragments. Tests craft frames; the server parses
// them with ws.
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

export interface RawWebSocket {
  socket: Socket;
  /** The status line and headers of the server's answer to the handshake. */
  head: string;
  /** Bytes received after the head. */
  bytes(): Buffer;
  /** Resolves once the server closed the TCP connection. */
  ended: Promise<void>;
  /** The code of the server's close frame, once one arrived (undefined before). */
  closeCode(): number | undefined;
  /** Resolves once `condition()` holds, checked on each chunk received and when the connection ends. */
  until(condition: () => boolean): Promise<void>;
  /** Bytes received after the head, kept or not. */
  received(): number;
}

/** Opens a WebSocket by hand; with `read: false` the socket is paused as soon as the head arrived. */
export function rawWebSocket(
  port: number,
  path: string,
  options: { headers?: Record<string, string>; read?: boolean; discard?: boolean } = {},
): Promise<RawWebSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let buffer = Buffer.alloc(0);
    let head: string | undefined;
    let received = 0;
    const waiters = new Set<() => void>();
    let endedResolve!: () => void;
    const ended = new Promise<void>((settle) => {
      endedResolve = settle;
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      endedResolve();
      for (const waiter of waiters) waiter();
      if (head === undefined) reject(new Error("The server closed the connection before answering"));
    });
    socket.on("data", (chunk: Buffer) => {
      if (head !== undefined && options.discard === true) received += chunk.length;
      else buffer = Buffer.concat([buffer, chunk]);
      if (head === undefined) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        head = buffer.subarray(0, end).toString("latin1");
        buffer = buffer.subarray(end + 4);
        received = buffer.length;
        if (options.read === false) socket.pause();
        resolve(raw);
      } else if (options.discard !== true) received += chunk.length;
      for (const waiter of waiters) waiter();
    });
    const extra = Object.entries(options.headers ?? {})
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.on("connect", () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`,
      ),
    );
    const raw: RawWebSocket = {
      socket,
      get head() {
        return head!;
      },
      bytes: () => buffer,
      received: () => received,
      ended,
      closeCode: () => closeCodeIn(buffer),
      until: (condition) =>
        new Promise((done) => {
          if (condition()) return done();
          const check = () => {
            if (!condition() && !socket.destroyed) return;
            waiters.delete(check);
            done();
          };
          waiters.add(check);
        }),
    };
  });
}

/** The code of the first close frame among server frames (unmasked), if one arrived whole. */
function closeCodeIn(buffer: Buffer): number | undefined {
  let offset = 0;
  while (offset + 2 <= buffer.length) {
    const opcode = buffer[offset]! & 0x0f;
    let length = buffer[offset + 1]! & 0x7f;
    let start = offset + 2;
    if (length === 126) {
      if (start + 2 > buffer.length) return undefined;
      length = buffer.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      if (start + 8 > buffer.length) return undefined;
      length = Number(buffer.readBigUInt64BE(start));
      start += 8;
    }
    if (start + length > buffer.length) return undefined;
    if (opcode === 0x8) return length >= 2 ? buffer.readUInt16BE(start) : 1005;
    offset = start + length;
  }
  return undefined;
}

/** One client frame: masked unless `masked` is false, final unless `fin` is false. */
export function frame(
  opcode: number,
  payload: Buffer,
  { masked = true, fin = true }: { masked?: boolean; fin?: boolean } = {},
): Buffer {
  const length = payload.length;
  const header: number[] = [(fin ? 0x80 : 0) | opcode];
  const maskBit = masked ? 0x80 : 0;
  if (length < 126) header.push(maskBit | length);
  else if (length < 65536) header.push(maskBit | 126, length >> 8, length & 0xff);
  else {
    header.push(maskBit | 127);
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(length));
    header.push(...big);
  }
  if (!masked) return Buffer.concat([Buffer.from(header), payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload);
  for (let index = 0; index < body.length; index++) body[index]! ^= mask[index % 4]!;
  return Buffer.concat([Buffer.from(header), mask, body]);
}
