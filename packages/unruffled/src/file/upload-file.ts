import { Readable } from "../node-builtins.ts";

/** What a file is, without its bytes: its JSON form, and how a 422 quotes a file no parameter reads. */
export interface UploadFileSummary {
  filename: string;
  contentType: string;
  size: number;
}

/**
 * A file received in a multipart body. Its bytes were streamed in under the configured limits and
 * are held until the response is sent.
 *
 * @example
 * handler(_request, { avatar }) {
 *   const bytes = await avatar.read();
 *   return new JsonResponse({ name: avatar.filename, size: avatar.size });
 * }
 */
export class UploadFile {
  /** The file name the client sent, without any directory part. */
  readonly filename: string;
  /**
   * The part's media type, lower case, without parameters; `text/plain` when the part names none, as
   * RFC 7578 §4.4 and browsers' own form parser read it (a browser labels a file of unknown type
   * `application/octet-stream`).
   */
  readonly contentType: string;
  /** The form field the file came in. */
  readonly fieldName: string;
  /** Size in bytes. */
  readonly size: number;
  private readonly chunks: readonly Buffer[];

  constructor(init: { filename: string; contentType: string; fieldName: string; chunks: readonly Buffer[] }) {
    this.filename = init.filename;
    this.contentType = init.contentType || "application/octet-stream";
    this.fieldName = init.fieldName;
    this.chunks = init.chunks;
    let size = 0;
    for (const chunk of init.chunks) size += chunk.length;
    this.size = size;
  }

  /** The whole content; its length is `size`. */
  async read(): Promise<Buffer> {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
  }

  /** The content decoded as UTF-8 text. */
  async text(): Promise<string> {
    return (await this.read()).toString("utf8");
  }

  /** The content as a stream, chunk by chunk as it arrived. */
  stream(): Readable {
    return Readable.from(this.chunks);
  }

  toJSON(): UploadFileSummary {
    return { filename: this.filename, contentType: this.contentType, size: this.size };
  }
}
