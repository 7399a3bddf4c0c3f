import type { Socket } from "node:net";

// How long, and how much, a closing connection is still read and dropped after its answer.
const LINGER_MS = 2_000;
const LINGER_BYTES = 4 * 1024 * 1024;

const gentle = Symbol("closes gently");

/**
 * Makes the close that Node does after a `Connection: close` answer a gentle one. Node destroys
 * the socket right after the answer; with request bytes still arriving (a refused body, requests
 * pipelined behind), the kernel then sends a reset that can wipe the answer from the client's
 * buffers, so the client sees a broken connection instead of the answer. Instead: finish writing,
 * then drop what still arrives, unparsed and never buffered, until the client stops, 2 s pass, or
 * 4 MiB more came. Unparsed, no request behind the answer reaches the app (RFC 9112 §9.6).
 */
export function closeGentlyAfterAnswer(socket: Socket): void {
  const closing = socket as Socket & { destroySoon?: () => void; [gentle]?: true };
  if (closing[gentle]) return;
  closing[gentle] = true;
  closing.destroySoon = () => {
    socket.end();
    // Node's HTTP parser stops hearing the socket: what follows is bytes, not requests.
    socket.removeAllListeners("data");
    let dropped = 0;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.on("data", (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) socket.destroy();
    });
    socket.once("end", () => socket.destroy());
    socket.once("close", () => clearTimeout(timer));
    // Reading may be paused, by a refused body or a waiting request that nobody reads.
    socket.resume();
  };
}
