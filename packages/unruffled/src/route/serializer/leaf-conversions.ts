import type { z } from "zod";
import { type Conversion, either } from "./conversion.ts";
import { kindOfValue } from "./json-categories.ts";
import { defOf, isExactOptional, lazyTarget, rewritesValue } from "./zod-def.ts";

/**
 * Which schemas are leaves of a picker: their value goes out as it is, after a test of its JSON
 * kind (a string where the model says string). Known once per schema.
 */
export class LeafConversions {
  private readonly known = new Map<z.ZodType, Conversion | undefined>();
  /** Names a value the picker's code reads as a constant (an enum's set of values). */
  private readonly constant: (value: unknown) => string;

  constructor(constant: (value: unknown) => string) {
    this.constant = constant;
  }

  /** A schema whose value goes out as it is, after a test of its kind; undefined for one that rebuilds it. */
  of(schema: z.ZodType, resolving: Set<z.ZodType>): Conversion | undefined {
    if (this.known.has(schema)) return this.known.get(schema);
    const leaf = this.compute(schema, resolving);
    this.known.set(schema, leaf);
    return leaf;
  }

  private compute(schema: z.ZodType, resolving: Set<z.ZodType>): Conversion | undefined {
    const def = defOf(schema);
    if (rewritesValue(def)) return undefined;
    const leaf = (test: ((x: string) => string) | undefined, takesUndefined = false): Conversion => ({
      kind: "leaf",
      test,
      takesUndefined,
    });
    switch (def.type) {
      case "string":
      case "template_literal":
        return leaf((x) => `typeof ${x} === "string"`);
      case "number":
        return leaf((x) => `Number.isFinite(${x})`);
      case "nan":
        return leaf((x) => `Number.isNaN(${x})`);
      case "boolean":
      case "bigint":
      case "symbol":
        return leaf((x) => `typeof ${x} === "${def.type}"`);
      case "null":
        return leaf((x) => `${x} === null`);
      case "undefined":
      case "void":
        return leaf((x) => `${x} === undefined`, true);
      case "never":
        return leaf(() => "false");
      case "literal":
      case "enum": {
        const values = schema._zod.values!;
        if ([...values].some((value) => kindOfValue(value) === "object")) return undefined;
        const set = this.constant(values);
        return leaf((x) => `${set}.has(${x})`, values.has(undefined));
      }
      case "date":
        return leaf((x) => `${x} instanceof Date`);
      case "any":
      case "unknown":
      case "custom":
      case "file":
        return leaf(undefined, true);
      case "optional": {
        if (isExactOptional(schema) || def.innerType!._zod.optin === "defaulted") return undefined;
        const inner = this.of(def.innerType!, resolving);
        return inner?.kind === "leaf" ? either(inner, (x) => `${x} === undefined`, true) : undefined;
      }
      case "nullable": {
        const inner = this.of(def.innerType!, resolving);
        return inner?.kind === "leaf"
          ? either(inner, (x) => `${x} === null`, inner.takesUndefined)
          : undefined;
      }
      case "readonly":
        return this.of(def.innerType!, resolving);
      case "union": {
        // Options that keep their value as it is: whichever Zod picks, the output is the value.
        let result: Conversion | undefined;
        for (const option of def.options!) {
          if (option._zod.optin === "defaulted") return undefined;
          const inner = this.of(option, resolving);
          if (inner?.kind !== "leaf") return undefined;
          result =
            result === undefined
              ? inner
              : either(result as Extract<Conversion, { kind: "leaf" }>, inner.test, inner.takesUndefined);
        }
        return result;
      }
      case "lazy": {
        if (resolving.has(schema)) return undefined;
        resolving.add(schema);
        const inner = this.compute(lazyTarget(schema), resolving);
        resolving.delete(schema);
        return inner;
      }
      default:
        return undefined;
    }
  }
}
