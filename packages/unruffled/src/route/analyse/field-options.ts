import { z } from "zod";
import type { FieldOptions } from "../declare/markers.ts";
import { typeName } from "./schema-shape.ts";

const NUMERIC = new Set(["number", "bigint"]);

/** Every option of `FieldOptions`, in the order the docs list them. */
const OPTION_NAMES: readonly string[] = [
  "default",
  "alias",
  "title",
  "description",
  "example",
  "examples",
  "deprecated",
  "ge",
  "gt",
  "le",
  "lt",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "embed",
];

/**
 * The sentence that refuses an option `FieldOptions` does not have (FastAPI's `min_length`,
 * `include_in_schema`, …), which would otherwise be ignored without a word; undefined when all are known.
 *
 * @example unknownOption({ min_length: 3 }) // 'has no option "min_length" (write "minLength"); the options are …'
 */
export function unknownOption(options: object): string | undefined {
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || OPTION_NAMES.includes(name)) continue;
    const camel = name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
    const instead = name === "regex" ? "pattern" : OPTION_NAMES.includes(camel) ? camel : undefined;
    const hint = instead === undefined ? "" : ` (write "${instead}")`;
    return `has no option "${name}"${hint}; the options are ${OPTION_NAMES.join(", ")}`;
  }
  return undefined;
}
const LENGTHY = new Set(["string", "array"]);

/**
 * Applies a marker's options to its schema: constraints become Zod checks (so they are enforced and
 * appear in the JSON Schema), the default wraps the schema, and the documentation keys become
 * metadata. Returns an error sentence instead when an option cannot apply to the schema's type.
 */
export function applyFieldOptions(schema: z.ZodType, options: FieldOptions): z.ZodType | string {
  const type = typeName(schema);
  const checks: z.core.$ZodCheck[] = [];
  for (const [option, check] of [
    ["ge", z.gte],
    ["gt", z.gt],
    ["le", z.lte],
    ["lt", z.lt],
    ["multipleOf", z.multipleOf],
  ] as const) {
    const value = options[option];
    if (value === undefined) continue;
    if (!NUMERIC.has(type)) return `the option ${option} applies to numbers, not to ${type}`;
    checks.push(check(value));
  }
  for (const [option, check] of [
    ["minLength", z.minLength],
    ["maxLength", z.maxLength],
  ] as const) {
    const value = options[option];
    if (value === undefined) continue;
    if (!LENGTHY.has(type)) return `the option ${option} applies to strings and lists, not to ${type}`;
    checks.push(check(value));
  }
  if (options.pattern !== undefined) {
    if (type !== "string") return `the option pattern applies to strings, not to ${type}`;
    checks.push(z.regex(typeof options.pattern === "string" ? new RegExp(options.pattern) : options.pattern));
  }

  let result = checks.length > 0 ? withChecks(schema, checks) : schema;
  if (options.default !== undefined) {
    const check = result.safeParse(options.default);
    if (!check.success) {
      return `the default ${JSON.stringify(options.default)} does not satisfy the parameter's own schema (${check.error.issues[0]!.message})`;
    }
    result = result.default(options.default);
  }
  const meta: Record<string, unknown> = {};
  if (options.title !== undefined) meta.title = options.title;
  if (options.description !== undefined) meta.description = options.description;
  if (options.examples !== undefined) meta.examples = options.examples;
  else if (options.example !== undefined) meta.examples = [options.example];
  if (options.deprecated !== undefined) meta.deprecated = options.deprecated;
  return Object.keys(meta).length > 0 ? result.meta(meta) : result;
}

// Checks go on the value itself, under optional/nullable wrappers, so that a missing value skips them.
function withChecks(schema: z.ZodType, checks: z.core.$ZodCheck[]): z.ZodType {
  const d = schema._zod.def as unknown as { type: string; innerType?: z.ZodType };
  if (d.type === "optional") return withChecks(d.innerType!, checks).optional();
  if (d.type === "nullable") return withChecks(d.innerType!, checks).nullable();
  return schema.check(...(checks as z.core.$ZodCheck<unknown>[]));
}
