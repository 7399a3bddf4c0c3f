import { encodable } from "../client/encode-request.ts";
import { randomBytes } from "../node-builtins.ts";
import type { TestFile } from "../route/declare/call-params.ts";

// A call's parameters type its files (route/declare/call-params.ts): the type lives there.
export type { TestFile } from "../route/declare/call-params.ts";

/** A form field value: a scalar, or a list sent as repeated fields. */
export type FormValue = string | number | boolean | readonly (string | number | boolean)[];

export type FormInput = Readonly<Record<string, FormValue | undefined>>;

export type FilesInput = Readonly<Record<string, TestFile | readonly TestFile[] | undefined>>;

/**
 * Encodes fields and files as a `multipart/form-data` body, the way a browser sends a form.
 *
 * @example
 * const { contentType, body } = encodeMultipart({ title: "CV" }, { cv: { filename: "cv.txt", content: "hi" } });
 */
export function encodeMultipart(fields: FormInput, files: FilesInput): { contentType: string; body: Buffer } {
  const boundary = `----unruffled-test-${randomBytes(12).toString("hex")}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const item of listOf(value)) {
      const text = encodable("form", name, String(item));
      parts.push(part(boundary, `form-data; name="${quoted(name)}"`, undefined, Buffer.from(text)));
    }
  }
  for (const [name, value] of Object.entries(files)) {
    if (value === undefined) continue;
    for (const file of listOf(value)) {
      const disposition = `form-data; name="${quoted(name)}"; filename="${quoted(file.filename)}"`;
      parts.push(
        part(boundary, disposition, file.contentType ?? "application/octet-stream", bytesOf(file.content)),
      );
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}

function part(boundary: string, disposition: string, contentType: string | undefined, bytes: Buffer): Buffer {
  const type = contentType === undefined ? "" : `Content-Type: ${contentType}\r\n`;
  const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`;
  return Buffer.concat([Buffer.from(head), bytes, Buffer.from("\r\n")]);
}

// Browsers escape these three in names and filenames (HTML's form encoding algorithm).
function quoted(text: string): string {
  return text.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Text as UTF-8, bytes as they are. */
export function bytesOf(content: string | Uint8Array): Buffer {
  return typeof content === "string"
    ? Buffer.from(content)
    : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
}

function listOf<T>(value: T | readonly T[]): readonly T[] {
  return Array.isArray(value) ? value : [value as T];
}
