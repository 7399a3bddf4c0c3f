import type { BodyFormat, EndpointDescription, ParamDescription } from "../../route/description.ts";
import { type SchemaConverter, withoutNull } from "../schema-converter.ts";
import type { JsonSchema, RequestBodyObject } from "../types.ts";
import { textListItems } from "./parameters.ts";

const MEDIA_TYPES: Record<BodyFormat, string> = {
  json: "application/json",
  form: "application/x-www-form-urlencoded",
  multipart: "multipart/form-data",
};

/**
 * The Request Body object of an endpoint, or `undefined` when it reads no body. A model that fills
 * the whole body is documented as itself (a `$ref` when named); several body parameters are
 * documented as one object whose properties are the names the request path reads, model fields
 * flattened beside the scalars. Files are binary strings, so that Swagger UI offers a file input.
 *
 * @example
 * toOpenApiRequestBody(bindCourse, schemas);
 * // { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/BindRequest" } } } }
 */
export function toOpenApiRequestBody(
  description: EndpointDescription,
  schemas: SchemaConverter,
): RequestBodyObject | undefined {
  const format = description.bodyFormat;
  if (format === undefined) return undefined;
  const params = description.byLocation.body;
  const single = params.length === 1 ? params[0]! : undefined;
  // A form's fields are text, which has no null; JSON carries null.
  const asSent = format === "json" ? (schema: JsonSchema) => schema : withoutNull;
  if (single !== undefined && readsAsItself(single)) {
    const schema = schemas.convert(single.schema);
    if (format !== "json") {
      fieldsWithoutNull(schema);
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      for (const field of single.fields) {
        const property = properties[field.wireName];
        if (property !== undefined) textListItems(property, field, single.required && field.required);
      }
    }
    return { required: single.required, content: { [MEDIA_TYPES[format]]: { schema } } };
  }
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const param of params) {
    for (const field of param.fields) {
      const needed = param.required && field.required;
      const schema = asSent(schemas.convert(field.schema));
      properties[field.wireName] = format === "json" ? schema : textListItems(schema, field, needed);
      if (needed) required.push(field.wireName);
    }
  }
  const schema: JsonSchema = { type: "object", properties };
  if (required.length > 0) schema.required = required;
  // A strict model refuses the names no parameter reads (ParamDescription.knownNames).
  if (params.some((param) => param.knownNames !== undefined)) schema.additionalProperties = false;
  return { required: required.length > 0, content: { [MEDIA_TYPES[format]]: { schema } } };
}

/** `withoutNull` on each property of a model written inline (a named one is a component: left as it is). */
export function fieldsWithoutNull(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties !== undefined) for (const property of Object.values(properties)) withoutNull(property);
  return schema;
}

/** A value is its body's schema when it takes the whole body; a model also when no field is renamed on the wire. */
function readsAsItself(param: ParamDescription): boolean {
  if (param.wholeBody) return true;
  if (param.shape !== "model") return false;
  return param.wholeBody || param.fields.every((field) => field.wireName === field.key);
}
