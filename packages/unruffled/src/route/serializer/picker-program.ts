import { type Conversion, expressionOf } from "./conversion.ts";
import type { SchemaDef } from "./zod-def.ts";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The source of a picker: JavaScript that builds, from a value the model accepts, a copy holding
 * only what the model declares, with the same keys in the same order as Zod's parse would give, so
 * that `JSON.stringify` of it equals `JSON.stringify(model.parse(value))`. Run as
 * `new Function("c", "fail", code)(constants, fail)`, it returns the picker.
 */
export interface PickerSource {
  code: string;
  constants: unknown[];
  /** The parts that Zod parses instead, and why: `data[].name (rewrites its value)`. */
  fallbacks: string[];
  /** With `exclude_none`: the fields that may be null but are required (`.data[].email`). */
  requiredNullable: string[];
}

/**
 * What a picker's source is made of while it is written: its functions (one per schema, and the
 * lookup tables written after them), the constants they name (`k0`, `k1`…) and the parts left to
 * Zod. The writer decides what each schema becomes; this holds it and puts it together.
 */
export class PickerProgram {
  readonly functions: string[] = [];
  readonly afterFunctions: string[] = [];
  readonly fallbacks: string[] = [];
  readonly requiredNullable: string[] = [];
  private readonly constants: unknown[] = [];

  /** The name under which the picker reads `value`: `k3`. */
  constant(value: unknown): string {
    this.constants.push(value);
    return `k${this.constants.length - 1}`;
  }

  /** The whole source, returning the root conversion's function. */
  finish(root: Conversion): PickerSource {
    const prelude = this.constants.map((_, index) => `const k${index} = c[${index}];`);
    const rootName = root.kind === "function" ? root.name : "root";
    const rootFunction =
      root.kind === "leaf" ? [`function root(v) { return ${expressionOf(root, "v")}; }`] : [];
    const code = [
      '"use strict";',
      ...prelude,
      ...this.functions,
      ...rootFunction,
      ...this.afterFunctions,
      `return ${rootName};`,
    ].join("\n");
    return {
      code,
      constants: this.constants,
      fallbacks: this.fallbacks,
      requiredNullable: this.requiredNullable,
    };
  }
}

export const REWRITES = "its parse rewrites the value: .trim(), .toLowerCase(), .overwrite(), z.coerce";

/** Why Zod parses a part of the model, in the words of the build-time log. */
export function fallbackReason(def: SchemaDef): string {
  switch (def.type) {
    case "pipe":
      return "a transform or pipe";
    case "union":
      return "a union whose options accept the same kind of value";
    case "record":
      return "a record whose keys Zod checks, rewrites or keeps unchecked";
    case "tuple":
      return "a tuple with optional items";
    default:
      return `a schema of type ${def.type}`;
  }
}

/** `name` when the key is an identifier, else `"the key"`: a key in an object literal. */
export function propertyName(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/** `.name` when the key is an identifier, else `["the key"]`. */
export function access(key: string): string {
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
