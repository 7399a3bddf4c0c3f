/**
 * The parts of an OpenAPI 3.1 document that unruffled writes. Field names follow the specification
 * (https://spec.openapis.org/oas/v3.1.1), so these types read as its summary.
 */

/** A JSON Schema (draft 2020-12), as Zod's `toJSONSchema` writes it. */
export type JsonSchema = { [keyword: string]: unknown };

export interface OpenApiDocument {
  openapi: "3.1.1";
  info: InfoObject;
  servers?: ServerObject[];
  paths: Record<string, PathItemObject>;
  /** Requests the API sends to its users, by name: `{ "new-subscription": { post: {…} } }`. */
  webhooks?: Record<string, PathItemObject>;
  components?: ComponentsObject;
  tags?: TagObject[];
  externalDocs?: ExternalDocumentationObject;
}

export interface InfoObject {
  title: string;
  version: string;
  /** A one-line summary of the API. */
  summary?: string;
  /** CommonMark. */
  description?: string;
  /** A URL. */
  termsOfService?: string;
  contact?: ContactObject;
  license?: LicenseObject;
}

export interface ContactObject {
  name?: string;
  url?: string;
  email?: string;
}

/** A licence, named by an SPDX `identifier` (`"MIT"`) or by a `url` to its text: not both. */
export type LicenseObject =
  | { name: string; identifier: string; url?: never }
  | { name: string; url?: string; identifier?: never };

/** A tag of the document: a route's tag needs none, one declared gives its description and links. */
export interface TagObject {
  name: string;
  /** CommonMark. */
  description?: string;
  externalDocs?: ExternalDocumentationObject;
}

export interface ExternalDocumentationObject {
  url: string;
  description?: string;
}

export interface ServerObject {
  url: string;
  description?: string;
}

export type OperationMethod = "get" | "put" | "post" | "delete" | "options" | "patch";

export type PathItemObject = Partial<Record<OperationMethod, OperationObject>>;

export interface OperationObject {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  deprecated?: true;
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject>;
  /** Requests the API sends once the operation is done, by name, then URL (runtime expressions). */
  callbacks?: Record<string, CallbackObject>;
  /** The schemes the operation needs, by name, with their scopes; one object per alternative. */
  security?: SecurityRequirementObject[];
  /** Specification extensions, as a route's `openapiExtra` gives them: `"x-internal": true`. */
  [extension: `x-${string}`]: unknown;
}

/**
 * URLs to the operations the API sends to each, keyed by a URL whose `{…}` parts are runtime
 * expressions; a callback's operation has no operationId.
 */
export type CallbackObject = Record<
  string,
  Partial<Record<OperationMethod, Omit<OperationObject, "operationId">>>
>;

/** Scheme names to the scopes required (empty for schemes without scopes). */
export type SecurityRequirementObject = Record<string, string[]>;

export type ParameterLocation = "path" | "query" | "header" | "cookie";

export interface ParameterObject {
  /** The name on the wire: the alias, or the mapped header name (`x_token` → `x-token`). */
  name: string;
  in: ParameterLocation;
  required: boolean;
  description?: string;
  deprecated?: true;
  schema: JsonSchema;
  examples?: Record<string, ExampleObject>;
}

export interface ExampleObject {
  value: unknown;
}

export interface RequestBodyObject {
  required: boolean;
  content: Record<string, MediaTypeObject>;
}

export interface MediaTypeObject {
  schema: JsonSchema;
}

export interface ResponseObject {
  /** Never empty: OpenAPI requires one, so the reason phrase stands in for a missing description. */
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
}

export interface HeaderObject {
  description?: string;
  schema: JsonSchema;
}

export interface ComponentsObject {
  schemas?: Record<string, JsonSchema>;
  securitySchemes?: Record<string, Readonly<Record<string, unknown>>>;
}
