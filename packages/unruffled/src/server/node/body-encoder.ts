import type { ServerResponse } from "node:http";

/** Bodies shorter than this many characters are left to Node, which encodes them on its stack. */
export const MIN_ENCODED_CHARS = 8 * 1024;
/** The buffer a body is encoded into: bodies up to this many bytes of UTF-8. */
export const SCRATCH_BYTES = 64 * 1024;

/**
 * Encodes a large string body into UTF-8 bytes, in a buffer used again from one answer to the next.
 * Given a string, Node reads it twice: `Buffer.byteLength` for the Content-Length, then, joined to
 * the head, encoded into a fresh allocation of three bytes per character. Given these bytes, Node
 * writes them as they are, and their length is what the encoding wrote: one pass instead of two,
 * and no allocation. The buffer is used again only once Node holds none of it, which is when the
 * answer went to the kernel within `res.end()`; a client slow to read keeps it, and the next body
 * gets a new one (then Node would have held its own copy of the body as long).
 *
 * @example const bytes = encoder.encode(body); res.end(bytes); encoder.release(res, bytes);
 */
export class BodyEncoder {
  /** The buffer the next body is encoded into; undefined when none is free (one is made). */
  private free: Buffer | undefined;
  /** The buffer the last encoded body is in, until `release()` says whether Node kept it. */
  private lent: Buffer | undefined;

  /**
   * The body as UTF-8 bytes, valid until `release()`; undefined for a body under
   * `MIN_ENCODED_CHARS` or over `SCRATCH_BYTES` once encoded, which Node writes as a string.
   */
  encode(body: string): Buffer | undefined {
    if (body.length < MIN_ENCODED_CHARS || body.length > SCRATCH_BYTES) return undefined;
    const scratch = this.free ?? Buffer.allocUnsafeSlow(SCRATCH_BYTES);
    this.free = undefined;
    const written = scratch.write(body, 0, "utf8");
    // `write` stops before a character that does not fit whole, so an end this close may have cut one.
    if (written > SCRATCH_BYTES - 4) {
      this.free = scratch;
      return undefined;
    }
    this.lent = scratch;
    return scratch.subarray(0, written);
  }

  /**
   * After `res.end(bytes)`: the buffer is free again when nothing of the answer waits to be written
   * (neither in the socket's queue nor in the response's, as behind a pipelined request's answer).
   */
  release(res: ServerResponse, bytes: Buffer): void {
    const lent = this.lent;
    this.lent = undefined;
    if (lent !== undefined && lent.buffer === bytes.buffer && res.writableLength === 0) this.free ??= lent;
  }
}
