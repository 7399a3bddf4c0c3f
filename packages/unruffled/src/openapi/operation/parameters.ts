import type { EndpointDescription, ParamDescription, WireField } from "../../route/description.ts";
import { type SchemaConverter, withoutNull } from "../schema-converter.ts";
import type { ExampleObject, ParameterLocation, ParameterObject } from "../types.ts";

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
  const schema = withoutNull(schemas.convert(field.schema));
  const parameter: ParameterObject = {
    name: field.documentedName,
    in: location,
    // OpenAPI requires `required: true` on every path parameter.
    required: location === "path" || (param.required && field.required),
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

/** `[42, 7]` → `{ example1: { value: 42 }, example2: { value: 7 } }`, the map OpenAPI expects here. */
function examplesMap(values: readonly unknown[]): Record<string, ExampleObject> {
  return Object.fromEntries(values.map((value, index) => [`example${index + 1}`, { value }]));
}
