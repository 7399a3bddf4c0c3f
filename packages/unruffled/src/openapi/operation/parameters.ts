import type { EndpointDescription, ParamDescription, WireField } from "../../route/description.ts";
import { type SchemaConverter, withoutNull } from "../schema-converter.ts";
import type { ExampleObject, JsonSchema, ParameterLocation, ParameterObject } from "../types.ts";

const PARAMETER_LOCATIONS: readonly ParameterLocation[] = ["path", "query", "header", "cookie"];

/**
 * The Parameter objects of an endpoint: one per name read on the wire, so a model parameter gives
 * one entry per field. Path first, then query, header and cookie, each in declaration order.
 *
 * @example
 * toOpenApiParameters(route.endpointDescription, schemas);
 * // [{ name: "page", in: "query", required: false, schema: { type: "integer", minimum: 1, default: 1 } }]
 */
export function toOpenApiParameters(
  description: EndpointDescription,
  schemas: SchemaConverter,
): ParameterObject[] {
  const parameters: ParameterObject[] = [];
  for (const location of PARAMETER_LOCATIONS) {
    for (const param of description.byLocation[location]) {
      for (const field of param.fields) parameters.push(toOpenApiParameter(location, param, field, schemas));
    }
  }
  return parameters;
}

function toOpenApiParameter(
  location: ParameterLocation,
  param: ParamDescription,
  field: WireField,
  schemas: SchemaConverter,
): ParameterObject {
  const required = param.required && field.required;
  const schema = textListItems(withoutNull(schemas.convert(field.schema)), field, required);
  const parameter: ParameterObject = {
    name: field.documentedName,
    in: location,
    // OpenAPI requires `required: true` on every path parameter.
    required: location === "path" || required,
    schema,
  };
  // Readers show these from the Parameter object, not from its schema.
  if (typeof schema.description === "string") parameter.description = schema.description;
  if (schema.deprecated === true) parameter.deprecated = true;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) {
    parameter.examples = examplesMap(schema.examples);
  }
  return parameter;
}

/**
 * A required list read from text holds at least one item: an empty list is no name on the wire, which
 * the server reads as a missing value (a 422). In place; returns the schema.
 *
 * @example textListItems({ type: "array", items: { type: "string" } }, tagField, true).minItems // 1
 */
export function textListItems(schema: JsonSchema, field: WireField, required: boolean): JsonSchema {
  if (field.list && required && schema.type === "array" && !((schema.minItems as number) >= 1)) {
    schema.minItems = 1;
  }
  return schema;
}

/** `[42, 7]` → `{ example1: { value: 42 }, example2: { value: 7 } }`, the map OpenAPI expects here. */
function examplesMap(values: readonly unknown[]): Record<string, ExampleObject> {
  return Object.fromEntries(values.map((value, index) => [`example${index + 1}`, { value }]));
}
