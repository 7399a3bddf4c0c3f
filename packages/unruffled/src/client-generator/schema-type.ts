import { COMPONENT_REF_PREFIX } from "../openapi/schema-converter.ts";
import type { JsonSchema } from "../openapi/types.ts";
import { INPUT_DATE } from "./client-model.ts";

/**
 * Prints a JSON Schema (as the document's converter writes it) as a plain TypeScript type: objects
 * as object types with their descriptions, `anyOf`/`oneOf` as unions, references by their type
 * name. Plain types keep a client cheap to check: nothing is inferred, nothing is instantiated.
 *
 * @example schemaType({ type: "array", items: { type: "integer" } }, names, "") // "number[]"
 */
export function schemaType(schema: unknown, typeNames: ReadonlyMap<string, string>, indent: string): string {
  if (schema === true || schema === undefined) return "unknown";
  if (schema === false) return "never";
  if (typeof schema !== "object" || schema === null) return "unknown";
  const s = schema as JsonSchema;
  if (typeof s.$ref === "string") {
    const name = s.$ref.startsWith(COMPONENT_REF_PREFIX)
      ? typeNames.get(s.$ref.slice(COMPONENT_REF_PREFIX.length))
      : undefined;
    return name ?? "unknown";
  }
  if ("const" in s) return literal(s.const);
  if (Array.isArray(s.enum)) return union(s.enum.map(literal));
  const alternatives = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as
    | unknown[]
    | undefined;
  if (alternatives !== undefined) {
    const own = ownType(s, typeNames, indent);
    const options = union(alternatives.map((option) => schemaType(option, typeNames, indent)));
    return own === undefined ? options : `${own} & (${options})`;
  }
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.map((part) => wrapped(schemaType(part, typeNames, indent)));
    const own = ownType(s, typeNames, indent);
    return [...(own === undefined ? [] : [own]), ...parts].join(" & ") || "unknown";
  }
  return ownType(s, typeNames, indent) ?? "unknown";
}

/** The type that `type` (and what goes with it) gives, or undefined when the schema has no `type`. */
function ownType(s: JsonSchema, typeNames: ReadonlyMap<string, string>, indent: string): string | undefined {
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  if (types.length === 0) {
    if (s.properties !== undefined || s.additionalProperties !== undefined) {
      return objectType(s, typeNames, indent);
    }
    if (s.items !== undefined || s.prefixItems !== undefined) return arrayType(s, typeNames, indent);
    return undefined;
  }
  return union(
    types.map((type) => {
      switch (type) {
        case "string":
          // A date the call gives: a Date, or its ISO string (see INPUT_DATE).
          return s[INPUT_DATE] === true ? "string | Date" : "string";
        case "integer":
        case "number":
          return "number";
        case "boolean":
          return "boolean";
        case "null":
          return "null";
        case "array":
          return arrayType(s, typeNames, indent);
        case "object":
          return objectType(s, typeNames, indent);
        default:
          return "unknown";
      }
    }),
  );
}

function arrayType(s: JsonSchema, typeNames: ReadonlyMap<string, string>, indent: string): string {
  if (Array.isArray(s.prefixItems)) {
    const items = s.prefixItems.map((item) => schemaType(item, typeNames, indent));
    const rest =
      s.items === false || s.items === undefined
        ? []
        : [`...${wrapped(schemaType(s.items, typeNames, indent))}[]`];
    return `[${[...items, ...rest].join(", ")}]`;
  }
  return `${wrapped(schemaType(s.items, typeNames, indent))}[]`;
}

/** An object type: its declared properties, then an index signature when others are allowed by a schema. */
export function objectType(s: JsonSchema, typeNames: ReadonlyMap<string, string>, indent: string): string {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [key, property] of Object.entries(properties)) {
    const comment = docComment(property, inner);
    if (comment !== "") lines.push(comment);
    const optional = required.has(key) ? "" : "?";
    lines.push(`${inner}${propertyKey(key)}${optional}: ${schemaType(property, typeNames, inner)};`);
  }
  const extra = s.additionalProperties;
  if (extra !== undefined && extra !== false) {
    const value = schemaType(extra, typeNames, inner);
    // An index signature must admit every declared property's type too.
    const all = lines.length === 0 || value === "unknown" ? value : "unknown";
    lines.push(`${inner}[key: string]: ${all};`);
  }
  if (lines.length === 0) return Object.keys(properties).length === 0 ? "Record<string, unknown>" : "{}";
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/** A schema's description (and deprecation) as a doc comment line, or "" when it has none. */
export function docComment(schema: unknown, indent: string): string {
  if (typeof schema !== "object" || schema === null) return "";
  const s = schema as JsonSchema;
  const parts: string[] = [];
  if (typeof s.description === "string" && s.description !== "") parts.push(s.description);
  if (s.deprecated === true) parts.push("@deprecated");
  if (parts.length === 0) return "";
  const text = parts
    .join(" ")
    .replace(/\*\//g, "*\\/")
    .replace(/\s*\n\s*/g, " ");
  return `${indent}/** ${text} */`;
}

/** A property key as TypeScript writes it: bare when it is an identifier, quoted otherwise. */
export function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

function literal(value: unknown): string {
  if (value === null || typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return "unknown";
}

function union(types: readonly string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes("unknown")) return "unknown";
  if (unique.length === 0) return "never";
  return unique.length === 1 ? unique[0]! : unique.map(wrapped).join(" | ");
}

/** Parentheses around a union or an intersection, where `[]`, `|` or `&` would bind wrongly. */
function wrapped(type: string): string {
  let depth = 0;
  let quoted = false;
  for (let index = 0; index < type.length; index += 1) {
    const character = type[index]!;
    if (quoted) {
      if (character === "\\") index += 1;
      else if (character === '"') quoted = false;
    } else if (character === '"') quoted = true;
    else if (character === "{" || character === "[" || character === "(" || character === "<") depth += 1;
    else if (character === "}" || character === "]" || character === ")" || character === ">") depth -= 1;
    else if (depth === 0 && (character === "|" || character === "&")) return `(${type})`;
  }
  return type;
}
