import type { z } from "zod";
import type { Coercer } from "./coerce.ts";
import type { EndpointDefinition } from "./endpoint.ts";
import type { FieldOptions, FileOptions, MarkerKind } from "./markers.ts";
import type { QueryReader } from "./query-reader.ts";
import type { ResponseSpec } from "./response-spec.ts";
import type { ResponseSerializers } from "./serializer/response-serializers.ts";

/** Where a value is read; `body` covers JSON, forms and files, as in the `loc` of validation errors. */
export type Location = "path" | "query" | "header" | "cookie" | "body";

export const LOCATIONS: readonly Location[] = ["path", "query", "header", "cookie", "body"];

/** How the body is read, when an endpoint has body parameters. */
export type BodyFormat = "json" | "form" | "multipart";

/** One name read on the wire: a scalar parameter, or one field of a model parameter. */
export interface WireField {
  /** The field's key in the model, or `null` for a scalar or list parameter. */
  key: string | null;
  /** The name in the request: alias, mapped header name (lower case), or the key itself. */
  wireName: string;
  /** The name as documented (a header keeps its usual capitalisation when aliased). */
  documentedName: string;
  list: boolean;
  coerce: Coercer | undefined;
  /** The field's own schema (for a scalar parameter, the parameter's schema). */
  schema: z.ZodType;
  required: boolean;
}

/** A parameter after analysis: everything the request path, the document and the errors need. */
export interface ParamDescription {
  name: string;
  marker: MarkerKind;
  location: Location;
  /** True when the source came from auto-detection (a bare Zod schema). */
  detected: boolean;
  shape: "scalar" | "list" | "model" | "file" | "file-list";
  /** The schema that validates the gathered value, with the marker's options applied. */
  schema: z.ZodType;
  required: boolean;
  fields: WireField[];
  options: FieldOptions | FileOptions;
  /** A JSON model alone in the body is filled from the whole body, so its errors point at `body`. */
  wholeBody: boolean;
  /** For files: the size limit of one file of this parameter. */
  fileSizeLimit: number | undefined;
}

/**
 * An endpoint analysed once, when its route is built. The request path, the OpenAPI generator and
 * the error messages all read this, and nothing re-reads the declaration.
 */
export interface EndpointDescription {
  endpoint: EndpointDefinition;
  /** `endpoint "list_students" (GET /api/enroll/student-list)`, for messages. */
  label: string;
  params: ParamDescription[];
  /** The parameters of each location, in declaration order. */
  byLocation: Record<Location, ParamDescription[]>;
  /** Reads the declared query names from the raw query string; `undefined` without query parameters. */
  queryReader: QueryReader | undefined;
  bodyFormat: BodyFormat | undefined;
  /** The size limit of the files of each file field, by wire name (multipart bodies only). */
  fileSizeLimits: ReadonlyMap<string, number>;
  /** One schema for all sources, by parameter name (`{ page, size, body }`), compiled by Zod. */
  validator: z.ZodType | undefined;
  /** `null` when `returns` names a response class only. */
  responses: readonly ResponseSpec[] | null;
  /** The response class named by `returns`, when it is one. */
  responseClass: Function | undefined;
  /** The compiled writer of each status with a JSON or event-stream model; undefined without any. */
  serializers: ResponseSerializers | undefined;
}
