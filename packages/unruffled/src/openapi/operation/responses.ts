import type { z } from "zod";
import { EventStreamResponse } from "../../http/event-stream-response.ts";
import { FileResponse } from "../../http/file-response.ts";
import { OCTET_STREAM } from "../../http/media-types.ts";
import { statusOfClass } from "../../http/redirect-response.ts";
import { HtmlResponse, JsonResponse, PlainTextResponse } from "../../http/response.ts";
import { isDeepStrictEqual, STATUS_CODES } from "../../node-builtins.ts";
import type { ResponseSpec } from "../../route/declare/response-spec.ts";
import type { EndpointDescription } from "../../route/description.ts";
import type { SchemaConverter } from "../schema-converter.ts";
import type { HeaderObject, JsonSchema, MediaTypeObject, ResponseObject } from "../types.ts";
import { EVENT_STREAM, eventSchema } from "./event-stream-schema.ts";
import { addRateLimitHeaders } from "./rate-limit-responses.ts";

/** What the app's exception handlers answer, as they document it. */
export interface HandlerResponses {
  /** The validation-error handler's responses: for endpoints that read parameters. */
  validation: readonly ResponseSpec[];
  /** Every other handler's documented responses: any endpoint may answer them. */
  always: readonly ResponseSpec[];
  /** What the handlers answer when this endpoint's authentication fails (401, 403). */
  security?: readonly ResponseSpec[];
  /** What the handlers answer when this endpoint's body is refused (413, 415). */
  body?: readonly ResponseSpec[];
  /** What the handlers answer when this endpoint's rate limit refuses a request (429). */
  rateLimit?: readonly ResponseSpec[];
}

/**
 * The Responses object of an endpoint: one entry per `ResponseSpec` (or a 200 described by the
 * response class), plus what the app's exception handlers document — the validation-error handler's
 * when the endpoint reads parameters, the security and body refusals when it has them. A status documented twice keeps every body, under `anyOf`.
 *
 * @example
 * toOpenApiResponses(listStudents, { validation: validationHandler.responses, always: [] }, schemas);
 * // { "200": { description: "Successful Response", content: { … } }, "422": { description: "Validation Error", … } }
 */
export function toOpenApiResponses(
  description: EndpointDescription,
  handlerResponses: HandlerResponses,
  schemas: SchemaConverter,
): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {};
  for (const responseClass of description.responseClasses) {
    const code = String(statusOfClass(responseClass));
    responses[code] ??= responseOfClasses(code, description.responseClasses);
  }
  for (const spec of description.responses) responses[spec.code] = toOpenApiResponse(spec, schemas);
  const fromHandlers = [
    // Only what the validator reads can be refused (a placeholder no parameter reads is not).
    ...(description.validator !== undefined ? handlerResponses.validation : []),
    ...(handlerResponses.security ?? []),
    ...(handlerResponses.body ?? []),
    ...(handlerResponses.rateLimit ?? []),
    ...handlerResponses.always,
  ];
  for (const spec of fromHandlers) {
    const response = toOpenApiResponse(spec, schemas);
    const existing = responses[spec.code];
    responses[spec.code] = existing === undefined ? response : mergeResponses(existing, response);
  }
  addRateLimitHeaders(description, responses);
  return responses;
}

/** The Response object of one `ResponseSpec`. */
export function toOpenApiResponse(spec: ResponseSpec, schemas: SchemaConverter): ResponseObject {
  const response: ResponseObject = {
    description: spec.description || defaultDescription(spec.code),
  };
  if (spec.headers) response.headers = headersOf(spec.headers);
  // The declarations bind models by Zod's core type (cheap to check); every model is a classic schema.
  const model = spec.model as z.ZodType;
  const schema = schemas.convert(model);
  response.content = {
    [spec.contentType]: {
      schema: spec.contentType === EVENT_STREAM ? eventSchema(schema) : undefinedAsNull(model, schema),
    },
  };
  return response;
}

const RESTRICTING = ["type", "$ref", "anyOf", "oneOf", "allOf", "const", "enum", "not"];

/** A model that may give undefined (`.optional()`) is written `null` in JSON: its document says so. */
function undefinedAsNull(model: z.ZodType, schema: JsonSchema): JsonSchema {
  if (model._zod.optout !== "optional") return schema;
  // A schema that restricts nothing (z.unknown(), z.any()) admits null already.
  if (!RESTRICTING.some((keyword) => keyword in schema)) return schema;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const options = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : [];
  if (types.includes("null") || options.some((option) => option.type === "null")) return schema;
  return { anyOf: [schema, { type: "null" }] };
}

/** OpenAPI requires a description; the reason phrase says at least what the status means. */
export function defaultDescription(code: string): string {
  if (code === "200") return "Successful Response";
  return STATUS_CODES[code] ?? `Status ${code}`;
}

/**
 * `returns: PlainTextResponse` documents a text body, `returns: JsonResponse` a JSON body of any shape,
 * `returns: EventStreamResponse` events whose data may be any JSON, `returns: FileResponse` bytes of any
 * type (`application/octet-stream`), `HttpResponse` no content, and `RedirectResponse` a 307 with its
 * `Location`; several classes of one status document each of their media types.
 */
function responseOfClasses(code: string, responseClasses: readonly Function[]): ResponseObject {
  const response: ResponseObject = { description: defaultDescription(code) };
  if (code !== "200")
    response.headers = { Location: { schema: { type: "string", format: "uri-reference" } } };
  for (const responseClass of responseClasses) {
    if (String(statusOfClass(responseClass)) !== code) continue;
    const media = mediaTypeOfClass(responseClass);
    if (media !== undefined)
      response.content = { ...response.content, [media.type]: { schema: media.schema } };
  }
  return response;
}

function mediaTypeOfClass(
  responseClass: Function | undefined,
): { type: string; schema: JsonSchema } | undefined {
  const is = (base: Function) =>
    responseClass !== undefined && (responseClass === base || responseClass.prototype instanceof base);
  if (is(PlainTextResponse)) return { type: "text/plain", schema: { type: "string" } };
  if (is(HtmlResponse)) return { type: "text/html", schema: { type: "string" } };
  if (is(JsonResponse)) return { type: "application/json", schema: {} };
  if (is(EventStreamResponse)) return { type: EVENT_STREAM, schema: eventSchema({}) };
  if (is(FileResponse)) return { type: OCTET_STREAM, schema: { type: "string", format: "binary" } };
  return undefined;
}

function headersOf(headers: Readonly<Record<string, string>>): Record<string, HeaderObject> {
  const result: Record<string, HeaderObject> = {};
  for (const [name, description] of Object.entries(headers)) {
    result[name] = description ? { description, schema: { type: "string" } } : { schema: { type: "string" } };
  }
  return result;
}

/** Two documents of one status: the first description, both header sets, both bodies under `anyOf`. */
function mergeResponses(first: ResponseObject, second: ResponseObject): ResponseObject {
  const merged: ResponseObject = { description: first.description };
  if (first.headers !== undefined || second.headers !== undefined) {
    merged.headers = { ...second.headers, ...first.headers };
  }
  const content: Record<string, MediaTypeObject> = { ...first.content };
  for (const [type, media] of Object.entries(second.content ?? {})) {
    const existing = content[type];
    content[type] = existing === undefined ? media : { schema: eitherSchema(existing.schema, media.schema) };
  }
  if (Object.keys(content).length > 0) merged.content = content;
  return merged;
}

/** `anyOf` of two schemas, flat and without repeats (three handlers may document one status). */
function eitherSchema(first: JsonSchema | undefined, second: JsonSchema | undefined): JsonSchema {
  const options: JsonSchema[] = [];
  for (const schema of [first ?? {}, second ?? {}]) {
    const alternatives =
      Array.isArray(schema.anyOf) && Object.keys(schema).length === 1
        ? (schema.anyOf as JsonSchema[])
        : [schema];
    for (const alternative of alternatives) {
      if (!options.some((option) => isDeepStrictEqual(option, alternative))) options.push(alternative);
    }
  }
  return options.length === 1 ? options[0]! : { anyOf: options };
}
