import type { IncomingHttpHeaders } from "node:http";
import type { BusboyConstructor, BusboyFileStream } from "@fastify/busboy";
import { MalformedBodyError, PayloadTooLargeError } from "../errors.ts";
import type { BodySource } from "../http/body.ts";
import { UploadFile, type UploadFileSummary } from "./upload-file.ts";
import type { UploadLimits } from "./upload-limits.ts";

export interface MultipartBody {
  fields: Record<string, string[]>;
  files: Record<string, UploadFile[]>;
  /** The files of fields nobody declared, by field name: what they were, their bytes dropped. */
  unreadFiles: Record<string, UploadFileSummary[]>;
}

// Loaded on the first multipart body: many apps never parse one, and the parser costs memory.
let busboy: Promise<{ Busboy: BusboyConstructor }> | undefined;

/**
 * Streams a `multipart/form-data` body through busboy. A file, field or count past its limit is
 * answered with 413 at once and the rest of the body is never read.
 *
 * `fileLimits` maps each declared file field to the size limit of its files; the bytes of a file
 * field nobody declared are counted and dropped, and only its summary kept (a strict form model
 * refuses it).
 */
export async function readMultipart(
  source: BodySource,
  headers: IncomingHttpHeaders,
  limits: UploadLimits,
  fileLimits: ReadonlyMap<string, number>,
): Promise<MultipartBody> {
  if (source.length !== undefined && source.length > limits.totalSize) {
    source.abandon();
    throw totalTooLarge(limits.totalSize);
  }
  // The body waits, paused, while the parser loads on the first upload.
  busboy ??= import("@fastify/busboy");
  const { Busboy } = await busboy;
  return new Promise((resolve, reject) => {
    const body: MultipartBody = {
      fields: Object.create(null),
      files: Object.create(null),
      unreadFiles: Object.create(null),
    };
    const input = source.readable();
    let settled = false;
    let parserFinished = false;
    let openFiles = 0;
    let received = 0;

    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      input.off("data", countBytes);
      input.unpipe(parser);
      source.abandon();
      reject(error);
    };
    const finishIfDone = () => {
      if (settled || !parserFinished || openFiles > 0) return;
      settled = true;
      input.off("data", countBytes);
      resolve(body);
    };
    const countBytes = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.totalSize) fail(totalTooLarge(limits.totalSize));
    };

    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: headers as IncomingHttpHeaders & { "content-type": string },
        limits: {
          fileSize: limits.fileSize,
          files: limits.files,
          fields: limits.fields,
          fieldSize: limits.fieldSize,
          parts: limits.files + limits.fields,
          headerPairs: 100,
        },
      });
    } catch (error) {
      source.abandon();
      reject(new MalformedBodyError(`Malformed multipart body: ${(error as Error).message}`));
      return;
    }

    parser.on("field", (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) {
        fail(
          new PayloadTooLargeError(
            `Form field "${name}" is larger than the limit of ${limits.fieldSize} bytes`,
            limits.fieldSize,
          ),
        );
        return;
      }
      appendTo(body.fields, name, value);
    });
    parser.on("file", (name, stream: BusboyFileStream, sentName: string | undefined, _encoding, mimeType) => {
      // Busboy takes a part of a binary media type without a filename for a file too, and gives it none.
      const filename = sentName ?? "";
      const limit = fileLimits.get(name);
      if (limit === undefined) {
        // Busboy reports a body cut short on the file stream too (the parser's own error settles the
        // request); unheard, that 'error' event would crash the process.
        stream.on("error", ignore);
        openFiles++;
        let size = 0;
        stream.on("data", (chunk: Buffer) => {
          size += chunk.length;
        });
        stream.on("end", () => {
          openFiles--;
          if (filename !== "" || size > 0) {
            const contentType = mimeType || "application/octet-stream";
            appendTo(body.unreadFiles, name, { filename, contentType, size });
          }
          finishIfDone();
        });
        return;
      }
      openFiles++;
      const chunks: Buffer[] = [];
      let size = 0;
      const tooLarge = () =>
        new PayloadTooLargeError(`File "${name}" is larger than the limit of ${limit} bytes`, limit);
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) fail(tooLarge());
        else chunks.push(chunk);
      });
      stream.on("limit", () => fail(tooLarge()));
      stream.on("error", (error: Error) =>
        fail(new MalformedBodyError(`Malformed multipart body: ${error.message}`)),
      );
      stream.on("end", () => {
        openFiles--;
        // A browser sends an empty part with no name when no file was chosen: that is no file.
        if (filename !== "" || size > 0) {
          const file = new UploadFile({ filename, contentType: mimeType, fieldName: name, chunks });
          appendTo(body.files, name, file);
        }
        finishIfDone();
      });
    });
    parser.on("filesLimit", () =>
      fail(new PayloadTooLargeError(`Too many files: the limit is ${limits.files}`, limits.files)),
    );
    parser.on("fieldsLimit", () =>
      fail(new PayloadTooLargeError(`Too many form fields: the limit is ${limits.fields}`, limits.fields)),
    );
    parser.on("partsLimit", () =>
      fail(
        new PayloadTooLargeError(
          `Too many parts: the limit is ${limits.files + limits.fields}`,
          limits.files + limits.fields,
        ),
      ),
    );
    parser.on("error", (error: unknown) =>
      fail(new MalformedBodyError(`Malformed multipart body: ${(error as Error).message}`)),
    );
    parser.on("finish", () => {
      parserFinished = true;
      finishIfDone();
    });
    const aborted = () => fail(new MalformedBodyError("The client closed the connection during the upload"));
    input.on("error", aborted);
    input.on("close", () => {
      if (!input.readableEnded) aborted();
    });
    input.on("data", countBytes);
    input.pipe(parser);
  });
}

function ignore(): void {}

function totalTooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`Multipart body is larger than the limit of ${limit} bytes`, limit);
}

function appendTo<T>(map: Record<string, T[]>, key: string, value: T): void {
  const list = map[key];
  if (list) list.push(value);
  else map[key] = [value];
}
