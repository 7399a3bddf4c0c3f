import { fsPromises, type Readable } from "../node-builtins.ts";
import { type ByteSpan, byteRangeOf } from "./byte-ranges.ts";
import {
  notModified,
  preconditionFailed,
  rangeStillApplies,
  type Validators,
  validatorsOf,
} from "./conditional-requests.ts";
import { mediaTypeOf } from "./media-types.ts";
import { type MultipartRanges, multipartRanges, multipartStream } from "./multipart-ranges.ts";
import type { HttpRequest } from "./request.ts";
import { HttpResponse, type ResponseBody, type ResponseInit } from "./response.ts";

export interface FileResponseInit extends ResponseInit {
  /** The name a browser saves the file under: `content-disposition: attachment; filename="…"`. */
  filename?: string;
  /** Default: guessed from the file name's extension (`application/octet-stream` when unknown). */
  contentType?: string;
  /** `"attachment"` (the default with a `filename`: the browser saves it) or `"inline"` (it shows it). */
  disposition?: "attachment" | "inline";
  /** The file's `stat`, when the caller has it already: the file is not looked at again. */
  stat?: FileFacts;
}

/** What a file is, as `stat` tells it: what `FileResponse` reads of it. */
export interface FileFacts {
  readonly size: number;
  readonly mtimeMs: number;
  isFile(): boolean;
}

/**
 * A file on disk as the answer, streamed from the disk as the client takes it (never read whole):
 * `content-type` from its extension, `content-length`, `last-modified`, an `etag` of its size and
 * modification time, and `accept-ranges: bytes`. A GET or HEAD of a 200 answers preconditions
 * (`If-Match`, `If-Unmodified-Since`: 412 without a body), conditional requests (`If-None-Match`,
 * `If-Modified-Since`: 304) and byte ranges (`Range`, `If-Range`: 206 with one range or a
 * `multipart/byteranges` body of several, or 416 with `content-range: bytes *\/size`); a HEAD gets
 * the status and headers its GET would, ranges included, without the file being opened. The file
 * is looked at when the endpoint's answer is made, not here: a path that is not a file then is the
 * handler's error (a 500, logged with the path).
 *
 * @example new FileResponse("reports/2026.pdf", { filename: "report.pdf" })
 */
export class FileResponse extends HttpResponse {
  /** The file's path, as given. */
  readonly path: string;
  /** The bytes to send, both included, once the request is known; undefined: none (HEAD, 304, 412, 416) or several. */
  private range: { start: number; end: number } | undefined;
  /** The parts to send when several ranges were asked for: a `multipart/byteranges` body. */
  private parts: MultipartRanges | undefined;
  /** The file's size in bytes, once looked at. */
  private size = -1;
  /** The answer being fitted to its request, once `prepareFor` was called. */
  private prepared: Promise<this> | undefined;
  /** The file's `stat` as given to the constructor. */
  private readonly known: FileFacts | undefined;

  constructor(filePath: string, init: FileResponseInit = {}) {
    if (typeof filePath !== "string" || filePath === "" || filePath.includes("\0")) {
      throw new TypeError(`FileResponse needs the path of a file, got ${JSON.stringify(filePath)}`);
    }
    const { filename, contentType, disposition, status, headers, stat } = init;
    super(
      null,
      status === undefined ? { headers } : { status, headers },
      contentType ?? mediaTypeOf(filename ?? filePath),
    );
    this.path = filePath;
    this.known = stat;
    if (filename !== undefined || disposition !== undefined) {
      this.headers["content-disposition"] ??= contentDisposition(disposition ?? "attachment", filename);
    }
  }

  /** The file's bytes as a stream, opened on first read; `null` before the answer is made, and for 304, 412 and 416; empty for HEAD. */
  override get body(): ResponseBody {
    if (this.content === null && this.range !== undefined) {
      // Opened here, as the adapter starts writing: an answer that is never sent holds no descriptor.
      this.content = fileStream(this.path, this.range.start, this.range.end);
    } else if (this.content === null && this.parts !== undefined) {
      // The file is opened on the stream's first read, as above.
      this.content = multipartStream(this.path, this.parts);
    }
    return this.content;
  }

  /**
   * The bytes to send (both ends included) while no stream of them was made, for a server that sends
   * a file itself (Bun's `Bun.file`, with no JavaScript per chunk); undefined otherwise.
   */
  unreadRange(): { readonly start: number; readonly end: number; readonly whole: boolean } | undefined {
    const range = this.range;
    if (this.content !== null || range === undefined) return undefined;
    return { start: range.start, end: range.end, whole: range.start === 0 && range.end === this.size - 1 };
  }

  /**
   * Looks at the file and fits the answer to the request: its headers, and the status and bytes its
   * conditions and range ask for. The app calls it on the answer of an endpoint, a middleware or an
   * exception handler; once: the same promise after the first call.
   */
  prepareFor(request: HttpRequest): Promise<this> {
    this.prepared ??= this.fitTo(request);
    return this.prepared;
  }

  private async fitTo(request: HttpRequest): Promise<this> {
    const stats = this.known ?? (await statOf(this.path));
    if (!stats.isFile()) {
      throw new Error(`FileResponse: ${JSON.stringify(this.path)} is not a file (a directory or a device)`);
    }
    const size = stats.size;
    this.size = size;
    const validators = validatorsOf(size, stats.mtimeMs);
    const headers = this.headers;
    headers["last-modified"] ??= new Date(validators.modified).toUTCString();
    headers.etag ??= validators.etag;
    headers["accept-ranges"] ??= "bytes";
    const method = request.method;
    const conditional = this.status === 200 && (method === "GET" || method === "HEAD");
    // RFC 9110 §13.2.2's order: If-Match (or If-Unmodified-Since), If-None-Match (or If-Modified-Since), If-Range.
    if (conditional && this.isPreconditionFailed(request, validators)) return this.withoutBytes(412);
    if (conditional && this.isNotModified(request, validators)) {
      this.status = 304;
      for (const name of REPRESENTATION_HEADERS) delete headers[name];
      return this;
    }
    // HEAD gets the status and headers GET would (RFC 9110 §9.3.2), Range included, and no bytes.
    const head = method === "HEAD";
    const range = conditional ? this.rangeAsked(request, validators, size) : undefined;
    if (range === "unsatisfiable") {
      headers["content-range"] = `bytes */${size}`;
      return this.withoutBytes(416);
    }
    if (range !== undefined && "spans" in range) {
      this.status = 206;
      const type = headers["content-type"];
      this.parts = multipartRanges(range.spans, size, typeof type === "string" ? type : undefined);
      headers["content-type"] = this.parts.mediaType;
      headers["content-length"] = String(this.parts.length);
      if (head) this.content = EMPTY;
      return this;
    }
    if (range !== undefined) {
      this.status = 206;
      headers["content-range"] = `bytes ${range.start}-${range.end}/${size}`;
      headers["content-length"] = String(range.end - range.start + 1);
      if (head) this.content = EMPTY;
      else this.range = range;
      return this;
    }
    headers["content-length"] = String(size);
    if (!head && size > 0) this.range = { start: 0, end: size - 1 };
    else this.content = EMPTY;
    return this;
  }

  /** An answer about the file without its bytes (412, 416): its validators, no type or length of it. */
  private withoutBytes(status: number): this {
    this.status = status;
    this.headers["content-length"] = "0";
    delete this.headers["content-type"];
    delete this.headers["content-disposition"];
    return this;
  }

  private isPreconditionFailed(request: HttpRequest, validators: Validators): boolean {
    return preconditionFailed(
      listOf(request.header("if-match")),
      oneOf(request.header("if-unmodified-since")),
      validators,
      etagOf(this.headers.etag),
    );
  }

  private isNotModified(request: HttpRequest, validators: Validators): boolean {
    return notModified(
      listOf(request.header("if-none-match")),
      oneOf(request.header("if-modified-since")),
      validators,
      etagOf(this.headers.etag),
    );
  }

  /** The range or ranges a `Range` header asks for and `If-Range` allows; undefined: the whole file. */
  private rangeAsked(
    request: HttpRequest,
    validators: Validators,
    size: number,
  ): ByteSpan | { spans: readonly ByteSpan[] } | "unsatisfiable" | undefined {
    const header = oneOf(request.header("range"));
    if (header === undefined) return undefined;
    if (!rangeStillApplies(oneOf(request.header("if-range")), validators, etagOf(this.headers.etag))) {
      return undefined;
    }
    const range = byteRangeOf(header, size);
    if (range.kind === "unsatisfiable") return "unsatisfiable";
    if (range.kind === "ranges") return { spans: range.spans };
    return range.kind === "range" ? { start: range.start, end: range.end } : undefined;
  }
}

// What a 304 leaves out: metadata of the representation it does not carry (RFC 9110 §15.4.5).
const REPRESENTATION_HEADERS = [
  "content-type",
  "content-length",
  "content-disposition",
  "content-language",
  "content-encoding",
  "last-modified",
  "accept-ranges",
];

const EMPTY = new Uint8Array(0);

async function statOf(filePath: string): Promise<FileFacts> {
  try {
    return await fsPromises().stat(filePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === "ENOENT" || code === "ENOTDIR"
        ? `FileResponse: there is no file at ${JSON.stringify(filePath)}`
        : `FileResponse: cannot read ${JSON.stringify(filePath)} (${code ?? String(error)})`,
      { cause: error },
    );
  }
}

/**
 * The file's bytes from `start` to `end`. A file that ends sooner (truncated after it was looked at)
 * fails the stream: the adapter then cuts the connection, whose next answer would otherwise be read
 * as the missing bytes of this one.
 */
function fileStream(filePath: string, start: number, end: number): Readable {
  // node:fs is loaded on first use, as node-builtins does for fs/promises.
  const stream = process.getBuiltinModule("node:fs").createReadStream(filePath, { start, end });
  const expected = end - start + 1;
  const push = stream.push;
  // Checked before the end is pushed: once "end" is emitted the answer is ended, its socket let go.
  stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk !== null || stream.bytesRead >= expected) return push.call(stream, chunk, encoding);
    const read = stream.bytesRead;
    stream.destroy(
      new Error(`FileResponse: ${JSON.stringify(filePath)} ended after ${read} of ${expected} bytes`),
    );
    return false;
  };
  return stream;
}

/** A header that may repeat, as one list. */
function listOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

/** A header that must come once; repeated, it is ignored. */
function oneOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}

function etagOf(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * `content-disposition` with the file name as a quoted string, and, for a name beyond printable
 * ASCII, RFC 5987's `filename*=UTF-8''…` beside an ASCII stand-in.
 *
 * @example contentDisposition("attachment", "résumé.pdf") // `attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`
 */
export function contentDisposition(type: string, filename: string | undefined): string {
  if (filename === undefined) return type;
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "\\$&");
  if (ascii === filename.replace(/["\\]/g, "\\$&")) return `${type}; filename="${ascii}"`;
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(filename)}`;
}

function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
