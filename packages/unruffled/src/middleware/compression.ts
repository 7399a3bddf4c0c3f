import type { BrotliOptions, ZlibOptions } from "node:zlib";
import { ValueError } from "../errors.ts";
import type { Middleware } from "../http/middleware.ts";
import type { HttpRequest } from "../http/request.ts";
import { type HeaderValue, HttpResponse, type ResponseBody } from "../http/response.ts";
import { pipeline, Readable, zlib } from "../node-builtins.ts";
import { type ContentCoding, chooseEncoding } from "./accept-encoding.ts";
import { addVary } from "./vary.ts";

export interface CompressionOptions {
  /**
   * Bodies smaller than this, in bytes, go as they are: compressing them costs more than it saves
   * (default 1,024). A streamed body is measured by the `content-length` it states; without one, it is compressed.
   */
  threshold?: number;
  /** The codings offered, the preferred first, for the client's ties (default `["br", "gzip"]`). */
  encodings?: readonly ContentCoding[];
  /** The content types compressed (default: text, JSON, XML, JavaScript, SVG and forms; never event streams). */
  types?: RegExp;
  /** zlib's options for gzip (default level 6). */
  gzip?: ZlibOptions;
  /** zlib's options for brotli (default quality 4: brotli's own default, 11, is far too slow for answers). */
  brotli?: BrotliOptions;
}

// What compresses well: text formats. Event streams are text too, but each event must reach the
// client when it is written, which a compressor holding back a block would prevent.
const TEXT_TYPES =
  /^\s*(?:text\/[\w.+-]+|application\/(?:[\w.-]+\+)?(?:json|xml|javascript|ecmascript|x-www-form-urlencoded)|image\/svg\+xml)\s*(?:;|$)/i;
const EVENT_STREAM = /^\s*text\/event-stream/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

// Bodies up to this size are compressed at once on the event loop (a fraction of a millisecond);
// larger ones in zlib's thread pool, so that one big answer does not hold up the others.
const AT_ONCE_LIMIT = 32 * 1024;

/**
 * Compresses answers with gzip or brotli (`node:zlib`), whichever the request's `Accept-Encoding`
 * weighs highest (q-values honoured), and adds `Vary: Accept-Encoding`. Text bodies from the
 * threshold up, and streamed bodies as they flow unless their `content-length` (a file's) is below
 * it; never a body already encoded, an event stream, a
 * `Cache-Control: no-transform` answer, a partial (206) answer, or the answer to HEAD.
 *
 * @example createApp({ routes, middleware: [cors({ origins }), compression({ threshold: 2048 })] })
 */
export function compression(options: CompressionOptions = {}): Middleware {
  const threshold = options.threshold ?? 1024;
  if (!Number.isInteger(threshold) || threshold < 0) {
    throw new ValueError(`compression(): threshold must be a whole number of bytes, got ${threshold}.`);
  }
  const encodings = options.encodings ?? ["br", "gzip"];
  if (encodings.length === 0 || !encodings.every((coding) => coding === "br" || coding === "gzip")) {
    throw new ValueError(
      `compression(): encodings must list "br" and/or "gzip", got ${JSON.stringify(encodings)}.`,
    );
  }
  const types = options.types ?? TEXT_TYPES;
  const codec = zlib();
  const gzip: ZlibOptions = { ...options.gzip };
  const brotli: BrotliOptions = {
    ...options.brotli,
    params: { [codec.constants.BROTLI_PARAM_QUALITY]: 4, ...options.brotli?.params },
  };
  // One request after another sends the same Accept-Encoding, and one route answers with one
  // content type: the last decision on each is kept.
  let lastHeader: string | undefined;
  let lastChoice: ContentCoding | undefined;
  let lastType: string | undefined;
  let lastTypeIsText = false;
  const isText = (type: string) => {
    if (type !== lastType) {
      lastTypeIsText = types.test(type) && !EVENT_STREAM.test(type);
      lastType = type;
    }
    return lastTypeIsText;
  };

  const encode = (response: HttpResponse, request: HttpRequest): HttpResponse | Promise<HttpResponse> => {
    const { headers } = response;
    // A stream's size is known only from the length it states (a file's): below the threshold, it
    // goes as it is, its body not even looked at (a FileResponse's file is then not opened here).
    if (statedBelow(headers["content-length"], threshold)) return response;
    const body = response.body;
    if (!compressible(response, isText) || (!(body instanceof Readable) && smallerThan(body!, threshold))) {
      return response;
    }
    addVary(headers, "Accept-Encoding");
    const header = request.headers["accept-encoding"];
    if (header !== lastHeader) {
      lastChoice = chooseEncoding(header, encodings);
      lastHeader = header;
    }
    const coding = lastChoice;
    if (coding === undefined) return response;
    const encoded = (output: ResponseBody) => withBody(response, output, coding);
    if (body instanceof Readable) {
      const stream = coding === "br" ? codec.createBrotliCompress(brotli) : codec.createGzip(gzip);
      // Either end failing or closing early (a client gone) destroys both: no zlib stream is left open.
      pipeline(body, stream, () => {});
      return encoded(stream);
    }
    const bytes = typeof body === "string" ? Buffer.from(body) : body!;
    if (bytes.byteLength <= AT_ONCE_LIMIT) {
      return encoded(coding === "br" ? codec.brotliCompressSync(bytes, brotli) : codec.gzipSync(bytes, gzip));
    }
    return new Promise((resolve, reject) => {
      const done = (error: Error | null, output: Buffer) =>
        error ? reject(error) : resolve(encoded(output));
      if (coding === "br") codec.brotliCompress(bytes, brotli, done);
      else codec.gzip(bytes, gzip, done);
    });
  };

  return function compression(request, next) {
    if (request.method === "HEAD") return next(request);
    const response = next(request);
    if (response instanceof Promise) return response.then((resolved) => encode(resolved, request));
    return encode(response, request);
  };
}

/** A body worth compressing, not encoded yet, that nothing forbids compressing. */
function compressible(response: HttpResponse, isText: (type: string) => boolean): boolean {
  const { headers, status } = response;
  if (response.body === null || status === 204 || status === 206 || status === 304) return false;
  if (headers["content-encoding"] !== undefined || headers["content-range"] !== undefined) return false;
  const type = headers["content-type"];
  if (typeof type !== "string" || !isText(type)) return false;
  const cacheControl = headers["cache-control"];
  return cacheControl === undefined || !NO_TRANSFORM.test(String(cacheControl));
}

/**
 * Whether a body has fewer bytes than `threshold`. A string's UTF-8 bytes number at least its
 * length and at most three times it: counted only when those bounds do not decide.
 */
function smallerThan(body: string | Uint8Array, threshold: number): boolean {
  if (typeof body !== "string") return body.byteLength < threshold;
  if (body.length * 3 < threshold) return true;
  return body.length < threshold && Buffer.byteLength(body) < threshold;
}

/** Whether a `content-length` the answer states is a number of bytes below `threshold`. */
function statedBelow(length: HeaderValue | undefined, threshold: number): boolean {
  return typeof length === "string" && /^\d+$/.test(length) && Number(length) < threshold;
}

/** The same answer with the encoded body: its headers, with the coding, the length and a weak ETag. */
function withBody(response: HttpResponse, body: ResponseBody, coding: ContentCoding): HttpResponse {
  const encoded = new HttpResponse(body, { status: response.status });
  if (response.logFields !== undefined) encoded.logFields = response.logFields;
  const headers: Record<string, HeaderValue> = Object.assign(encoded.headers, response.headers);
  headers["content-encoding"] = coding;
  if (body instanceof Readable) delete headers["content-length"];
  else headers["content-length"] = String((body as Uint8Array).byteLength);
  // The bytes differ from the unencoded answer's: a strong validator would claim they are the same.
  const etag = headers.etag;
  if (typeof etag === "string" && !etag.startsWith("W/")) headers.etag = `W/${etag}`;
  return encoded;
}
