import { PayloadTooLargeError } from "../errors.ts";
import { type BodySource, WebBodySource } from "../http/body.ts";
import type { Readable } from "../node-builtins.ts";
import { currentRuntime } from "./runtime.ts";

// Bun reads a body as text faster than as bytes (`text()` against `arrayBuffer()`, then decoding:
// about 15 % of a small validated JSON POST, in bench/fetch-overhead.ts); Deno and Node do not.
const TEXT_READS = currentRuntime() === "bun";

/**
 * The body of a web `Request`, touched only when the endpoint reads it. A body whose announced
 * `Content-Length` is within the limit is read in one call (`arrayBuffer()`: Bun and Deno read it
 * natively, with no stream and no chunk per read); any other body (chunked, or larger than the
 * limit) goes through the stream reader of `WebBodySource`, which stops at the limit. On Bun, a
 * body the app reads as text (JSON) is read with `text()`.
 *
 * @example new WebRequestBody(webRequest, webRequest.headers.get("content-length"))
 */
export class WebRequestBody implements BodySource {
  readonly length: number | undefined;
  private readonly request: Request;
  private streamed: WebBodySource | undefined;
  private refused = false;

  constructor(request: Request, contentLength: string | null) {
    this.request = request;
    this.length = contentLength === null ? undefined : Number(contentLength);
  }

  get abandoned(): boolean {
    return this.refused || (this.streamed?.abandoned ?? false);
  }

  async read(limit: number): Promise<Buffer> {
    const length = this.length;
    if (length === undefined || !(length <= limit)) return this.stream().read(limit);
    const bytes = Buffer.from(await this.request.arrayBuffer());
    // The runtime holds the client to its Content-Length; this only guards against one that does not.
    if (bytes.byteLength > limit) {
      this.refused = true;
      throw new PayloadTooLargeError(`Request body is larger than the limit of ${limit} bytes`, limit);
    }
    return bytes;
  }

  readText(limit: number): Promise<string> | undefined {
    const length = this.length;
    if (!TEXT_READS || length === undefined || !(length <= limit)) return undefined;
    return this.request.text().then((text) => {
      // As in read(): the runtime holds the client to its Content-Length, this only guards against
      // one that does not. A character is at least one byte, and at most three of UTF-8 per unit.
      if (text.length > limit || (text.length * 3 > limit && Buffer.byteLength(text) > limit)) {
        this.refused = true;
        throw new PayloadTooLargeError(`Request body is larger than the limit of ${limit} bytes`, limit);
      }
      return text;
    });
  }

  readable(): Readable {
    return this.stream().readable();
  }

  abandon(): void {
    this.stream().abandon();
  }

  private stream(): WebBodySource {
    this.streamed ??= new WebBodySource(
      this.request.body,
      this.length === undefined ? null : String(this.length),
    );
    return this.streamed;
  }
}
