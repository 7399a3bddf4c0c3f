import { Readable, randomBytes } from "../node-builtins.ts";
import type { ByteSpan } from "./byte-ranges.ts";

/**
 * A `multipart/byteranges` body (RFC 9110 §14.6) of several ranges of a file: each part's head (its
 * `content-type` and `content-range`), made before anything is sent, so that the answer's
 * `content-length` is exact; the bytes are read from the file only as the body is streamed.
 */
export interface MultipartRanges {
  /** `multipart/byteranges; boundary=…`: the answer's content type. */
  readonly mediaType: string;
  /** The body's length in bytes: every head, every range's bytes and the closing line. */
  readonly length: number;
  readonly spans: readonly ByteSpan[];
  /** The head before each span's bytes. */
  readonly heads: readonly Uint8Array[];
  /** The closing delimiter. */
  readonly tail: Uint8Array;
}

const encoder = new TextEncoder();
// What one read asks of the file: as much as a file stream reads at a time.
const CHUNK = 64 * 1024;

/**
 * The parts of `spans` of a file of `size` bytes whose type is `partType` (none when undefined),
 * under a random boundary (96 bits, as browsers make theirs).
 *
 * @example multipartRanges([{ start: 0, end: 1 }, { start: 4, end: 5 }], 10, "text/plain").length // 202
 */
export function multipartRanges(
  spans: readonly ByteSpan[],
  size: number,
  partType: string | undefined,
): MultipartRanges {
  const boundary = randomBytes(12).toString("hex");
  const typeLine = partType === undefined ? "" : `content-type: ${partType}\r\n`;
  let length = 0;
  const heads = spans.map((span, index) => {
    const head = encoder.encode(
      `${index === 0 ? "" : "\r\n"}--${boundary}\r\n${typeLine}` +
        `content-range: bytes ${span.start}-${span.end}/${size}\r\n\r\n`,
    );
    length += head.length + span.end - span.start + 1;
    return head;
  });
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  length += tail.length;
  return { mediaType: `multipart/byteranges; boundary=${boundary}`, length, spans, heads, tail };
}

/**
 * The body of `parts` read from the file at `filePath`: opened once, when the body is first read,
 * and closed when it ends, fails, or is destroyed (the client left). A file that ends before a part
 * does (truncated after it was looked at) fails the body: the adapter then cuts the connection,
 * whose next answer would otherwise be read as the missing bytes.
 */
export function multipartStream(filePath: string, parts: MultipartRanges): Readable {
  return Readable.from(partsOf(filePath, parts), { objectMode: false });
}

async function* partsOf(filePath: string, parts: MultipartRanges): AsyncGenerator<Uint8Array> {
  // A descriptor, not a FileHandle: closed here and only here, never left to the garbage collector.
  const fs = process.getBuiltinModule("node:fs");
  const fd = await new Promise<number>((resolve, reject) =>
    fs.open(filePath, "r", (error, opened) => (error === null ? resolve(opened) : reject(error))),
  );
  try {
    for (let index = 0; index < parts.spans.length; index++) {
      yield parts.heads[index]!;
      const { start, end } = parts.spans[index]!;
      for (let position = start; position <= end; ) {
        const chunk = new Uint8Array(Math.min(CHUNK, end - position + 1));
        const read = await new Promise<number>((resolve, reject) =>
          fs.read(fd, chunk, 0, chunk.length, position, (error, bytesRead) =>
            error === null ? resolve(bytesRead) : reject(error),
          ),
        );
        if (read === 0) {
          throw new Error(
            `FileResponse: ${JSON.stringify(filePath)} ended at byte ${position}, before the range ${start}-${end}`,
          );
        }
        position += read;
        yield read === chunk.length ? chunk : chunk.subarray(0, read);
      }
    }
    yield parts.tail;
  } finally {
    fs.close(fd, () => {});
  }
}
