import { connect, type Socket } from "node:net";

/** A raw HTTP/1.1 exchange, for what fetch cannot do: partial bodies, lying lengths, slow clients. */
export interface RawExchange {
  socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves with the server's bytes once it closed the connection or `timeoutMs` passed. */
  closed(timeoutMs?: number): Promise<string>;
  /** Resolves once the server's answer contains `text`. */
  waitFor(text: string, timeoutMs?: number): Promise<string>;
  /** Writes, resolving false instead of failing when the server already closed the connection. */
  write(data: string | Buffer): Promise<boolean>;
}

export function openRaw(port: number): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let buffer = "";
    let ended = false;
    const waiters = new Set<() => void>();
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      for (const waiter of waiters) waiter();
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      ended = true;
      for (const waiter of waiters) waiter();
    });
    const until = (done: () => boolean, timeoutMs: number) =>
      new Promise<string>((resolveWait, rejectWait) => {
        if (done()) return resolveWait(buffer);
        const timer = setTimeout(() => {
          waiters.delete(check);
          rejectWait(
            new Error(
              `timed out after ${timeoutMs} ms; received so far: ${JSON.stringify(buffer.slice(0, 300))}`,
            ),
          );
        }, timeoutMs);
        const check = () => {
          if (!done()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolveWait(buffer);
        };
        waiters.add(check);
      });
    socket.once("connect", () =>
      resolve({
        socket,
        received: () => buffer,
        closed: (timeoutMs = 5000) => until(() => ended, timeoutMs),
        waitFor: (text, timeoutMs = 5000) => until(() => buffer.includes(text), timeoutMs),
        write: (data) =>
          new Promise((resolveWrite) => {
            if (socket.destroyed || ended) return resolveWrite(false);
            socket.write(data, (error) => resolveWrite(!error));
          }),
      }),
    );
    socket.once("error", reject);
  });
}

/** The status code of the first response in raw bytes. */
export function statusOf(raw: string): number {
  return Number(raw.slice(9, 12));
}

/** The body of the first response in raw bytes (after the blank line). */
export function bodyOf(raw: string): string {
  return raw.slice(raw.indexOf("\r\n\r\n") + 4);
}
