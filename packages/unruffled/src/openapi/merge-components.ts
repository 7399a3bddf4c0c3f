import { z } from "zod";
import { isDeepStrictEqual } from "../node-builtins.ts";
import { COMPONENT_REF_PREFIX, refersTo, type SchemaConverter, twoSchemasNamed } from "./schema-converter.ts";
import type { JsonSchema } from "./types.ts";

/**
 * Joins the named models of the input side (parameters, request bodies) and the output side
 * (responses) into one `components.schemas`. A model that reads the same on both sides is written
 * once; one whose two sides differ (a field with a default is optional coming in, always present
 * going out) becomes `Name-Input` and `Name-Output`, and so does every model that holds it.
 *
 * @example
 * mergeComponents(input, output); // { BindRequest: {…}, "Student-Input": {…}, "Student-Output": {…} }
 */
export function mergeComponents(input: SchemaConverter, output: SchemaConverter): Record<string, JsonSchema> {
  const differing = new Set<string>();
  for (const [name, body] of input.components) {
    const other = output.components.get(name);
    if (other === undefined || isDeepStrictEqual(body, other)) continue;
    // Two sides that differ are one schema read in and out, unless the id names two different schemas.
    if (!oneSchema(input.sources.get(name), output.sources.get(name))) throw twoSchemasNamed(name);
    differing.add(name);
  }
  // A model that refers to a differing model differs too, although its own text reads the same.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, body] of input.components) {
      if (differing.has(name) || !output.components.has(name)) continue;
      if (refersTo(body, (ref) => differing.has(ref.slice(COMPONENT_REF_PREFIX.length)))) {
        differing.add(name);
        grew = true;
      }
    }
  }
  input.renameComponents((name) => (differing.has(name) ? `${name}-Input` : name));
  output.renameComponents((name) => (differing.has(name) ? `${name}-Output` : name));

  const merged = new Map([...input.components, ...output.components]);
  const names = [...merged.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(names.map((name) => [name, merged.get(name)!]));
}

/** True when two Zod schemas met under one id are one schema: the same object, or the same declaration. */
function oneSchema(first: z.core.$ZodType | undefined, second: z.core.$ZodType | undefined): boolean {
  if (first === undefined || second === undefined || first === second) return true;
  const asWritten = (schema: z.core.$ZodType) =>
    z.toJSONSchema(schema, { io: "output", unrepresentable: "any" });
  return isDeepStrictEqual(asWritten(first), asWritten(second));
}
