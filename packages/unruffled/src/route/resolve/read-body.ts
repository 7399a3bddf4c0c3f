import { UnsupportedMediaTypeError } from "../../errors.ts";
import { readMultipart } from "../../file/multipart.ts";
import type { UploadFile, UploadFileSummary } from "../../file/upload-file.ts";
import type { UploadLimits } from "../../file/upload-limits.ts";
import type { HttpRequest } from "../../http/request.ts";
import type { EndpointDescription } from "../description.ts";
import type { StringSource } from "../wire/string-source.ts";

/** The decoded body, in the shape its format gives. */
export interface ReadBody {
  json?: unknown;
  /**
   * The JSON body as it arrived, read again only when a 422 must quote a number `JSON.parse` made
   * infinite (`1e400`): JSON would write it `null`, the mark of an absent value.
   */
  jsonSource?: Buffer | string;
  fields?: StringSource;
  files?: Readonly<Record<string, UploadFile[]>>;
  /** A multipart body's files that no parameter reads, without their bytes: a strict model refuses them. */
  unreadFiles?: Readonly<Record<string, UploadFileSummary[]>>;
}

/**
 * Refuses a body that is not JSON with 415 before it is read. A client that sends no content type
 * gets the benefit of the doubt.
 */
export function checkJsonMediaType(type: string): void {
  if (!acceptsJsonMediaType(type)) {
    throw new UnsupportedMediaTypeError(`Expected a JSON body (application/json), got ${type}`);
  }
}

/**
 * Refuses with 415 a body sent with a content coding (`Content-Encoding: gzip`, `br`, …): a declared
 * body is read as it was sent, so compressed bytes would reach the JSON, form or multipart parser,
 * which reads them as a malformed body or, worse, as fields and files. The answer's
 * `Accept-Encoding: identity` says which coding is read (RFC 9110 §15.5.16): none.
 */
export function checkContentCoding(header: string | string[] | undefined): void {
  if (header === undefined) return;
  const coding = (typeof header === "string" ? header : header.join(", ")).trim();
  if (coding === "" || coding.toLowerCase() === "identity") return;
  throw new UnsupportedMediaTypeError(
    `Expected a body without a content coding (Content-Encoding), got ${coding}`,
    ACCEPTED_CODING,
  );
}

const ACCEPTED_CODING: Readonly<Record<string, string>> = Object.freeze({ "accept-encoding": "identity" });

/** Whether a body of this media type (lower case, no parameters) is read as JSON: see checkJsonMediaType. */
export function acceptsJsonMediaType(type: string): boolean {
  return type === "" || type === "application/json" || type.endsWith("+json");
}

/**
 * Reads the form body of an endpoint with form or file parameters: urlencoded or multipart for a
 * form, multipart only when it has files, 415 for anything else. Files stream through the upload
 * limits and each file field's own size limit.
 *
 * @example const { fields, files } = await readFormBody(description, request, uploadLimits);
 */
export async function readFormBody(
  description: EndpointDescription,
  request: HttpRequest,
  limits: UploadLimits,
): Promise<ReadBody> {
  checkContentCoding(request.header("content-encoding"));
  const type = request.contentType;
  if (description.bodyFormat === "form") {
    if (type === "multipart/form-data") return readMultipartBody(description, request, limits);
    if (type !== "" && type !== "application/x-www-form-urlencoded") {
      throw new UnsupportedMediaTypeError(
        `Expected a form body (application/x-www-form-urlencoded or multipart/form-data), got ${type}`,
      );
    }
    return { fields: await request.form() };
  }
  if (type !== "multipart/form-data") {
    // No body at all: every file and field is absent, and validation says which were required, as
    // a JSON or form endpoint answers the same request (FastAPI does too).
    if (type === "" && (await request.body()).length === 0) return NO_FORM_BODY;
    throw new UnsupportedMediaTypeError(
      `Expected a multipart/form-data body, got ${type || "no content type"}`,
    );
  }
  return readMultipartBody(description, request, limits);
}

const NO_FORM_BODY: ReadBody = Object.freeze({
  fields: Object.freeze(Object.create(null)),
  files: Object.freeze(Object.create(null)),
});

async function readMultipartBody(
  description: EndpointDescription,
  request: HttpRequest,
  limits: UploadLimits,
): Promise<ReadBody> {
  const body = await readMultipart(request.bodySource, request.headers, limits, description.fileSizeLimits);
  return { fields: body.fields, files: body.files, unreadFiles: body.unreadFiles };
}
