import type { z } from "zod";
import { NO_OMISSIONS, type Omissions } from "../declare/response-spec.ts";
import { type Conversion, expressionOf } from "./conversion.ts";
import { kindsOf, type ValueKind } from "./json-categories.ts";
import { LeafConversions } from "./leaf-conversions.ts";
import { omitted } from "./omissions.ts";
import {
  access,
  fallbackReason,
  PickerProgram,
  type PickerSource,
  propertyName,
  REWRITES,
} from "./picker-program.ts";
import { defOf, isExactOptional, lazyTarget, rewritesValue, type SchemaDef } from "./zod-def.ts";

/**
 * Writes the picker of a model. Each value is checked for its JSON kind only (a string where the
 * model says string); lengths, formats and refinements are Zod's to check, in strict mode. With
 * omissions, an object's null or defaulted fields are written as `undefined`, which JSON leaves out.
 *
 * @example writePicker(z.object({ id: z.int() })).code // "… function f0(v) { … o.id = … } return f0;"
 */
export function writePicker(model: z.ZodType, omissions: Omissions = NO_OMISSIONS): PickerSource {
  const writer = new PickerWriter(omissions);
  return writer.program.finish(writer.convert(model, ""));
}

class PickerWriter {
  readonly program = new PickerProgram();
  private readonly named = new Map<z.ZodType, string>();
  private readonly leaves = new LeafConversions((value) => this.constant(value));
  private readonly omissions: Omissions;
  constructor(omissions: Omissions) {
    this.omissions = omissions;
  }

  /** The conversion of `schema`, written once per schema (recursive models refer to their own function). */
  convert(schema: z.ZodType, path: string): Conversion {
    const target = this.resolveLazy(schema);
    if (target === undefined) return this.fallback(schema, path, "a lazy schema that only refers to itself");
    const leaf = this.leaves.of(target, new Set());
    if (leaf !== undefined) return leaf;
    const def = defOf(target);
    // A value its parse rewrites (`.overwrite()` on a list, `.trim()` on a string) is Zod's, whatever its kind.
    if (rewritesValue(def)) return this.fallback(target, path, REWRITES);
    if (def.type === "readonly") return this.convert(def.innerType!, path);
    const existing = this.named.get(target);
    if (existing !== undefined) return { kind: "function", name: existing };
    const name = `f${this.named.size}`;
    this.named.set(target, name);
    const body = this.body(target, def, path);
    if (body === undefined) {
      this.named.delete(target);
      return this.fallback(target, path, fallbackReason(def));
    }
    this.program.functions.push(`function ${name}(v) {\n${body}\n}`);
    return { kind: "function", name };
  }

  /** The schema a `z.lazy()` chain stands for; undefined when it never reaches one. */
  private resolveLazy(schema: z.ZodType): z.ZodType | undefined {
    let current = schema;
    for (let depth = 0; depth < 32; depth++) {
      const def = defOf(current);
      // A lazy with its own `.overwrite()` is kept, so that its rewrite is seen.
      if (def.type !== "lazy" || rewritesValue(def)) return current;
      current = lazyTarget(current);
    }
    return undefined;
  }

  /** A function body for a schema that rebuilds its value; undefined when Zod must parse it. */
  private body(schema: z.ZodType, def: SchemaDef, path: string): string | undefined {
    switch (def.type) {
      case "object":
        return this.objectBody(def, path);
      case "array":
        return this.arrayBody(def, path);
      case "tuple":
        return this.tupleBody(def, path);
      case "record":
        return this.recordBody(def, path);
      case "union":
        return def.discriminator === undefined
          ? this.unionBody(def, path)
          : this.discriminatedBody(def, path);
      case "optional": {
        const inner = this.convert(def.innerType!, path);
        // `.optional()` on an exact-optional or a defaulted schema passes `undefined` on, as Zod does.
        if (isExactOptional(schema) || def.innerType!._zod.optin === "defaulted") {
          return `return ${expressionOf(inner, "v")};`;
        }
        return `if (v === undefined) return undefined;\nreturn ${expressionOf(inner, "v")};`;
      }
      case "nullable":
        return `if (v === null) return null;\nreturn ${expressionOf(this.convert(def.innerType!, path), "v")};`;
      case "default": {
        const owner = this.constant(def);
        const inner = expressionOf(this.convert(def.innerType!, path), "v");
        return `if (v === undefined) return ${owner}.defaultValue;\nconst t = ${inner};\nreturn t === undefined ? ${owner}.defaultValue : t;`;
      }
      case "prefault": {
        const owner = this.constant(def);
        return `if (v === undefined) v = ${owner}.defaultValue;\nreturn ${expressionOf(this.convert(def.innerType!, path), "v")};`;
      }
      case "map":
      case "set":
        // JSON writes Zod's fresh Map or Set as {}: the value's own keys and a subclass's toJSON stay home.
        return `if (!(v instanceof ${def.type === "map" ? "Map" : "Set"})) fail();\nreturn {};`;
      case "nonoptional":
        return `const t = ${expressionOf(this.convert(def.innerType!, path), "v")};\nif (t === undefined) fail();\nreturn t;`;
      default:
        return undefined;
    }
  }

  private objectBody(def: SchemaDef, path: string): string {
    const shape = def.shape!;
    const keys = Object.keys(shape);
    const fields: string[] = [];
    for (const key of keys) {
      // Zod leaves a declared __proto__ out of what it returns.
      if (key === "__proto__") continue;
      const field = shape[key]!;
      const conversion = this.convert(field, `${path}.${key}`);
      const read = `v${access(key)}`;
      let value: string;
      if (conversion.kind === "leaf")
        value = conversion.test === undefined ? read : `(t = ${read}, ${expressionOf(conversion, "t")})`;
      else if (field._zod.optin === "optional" && field._zod.optout === "optional") {
        // An absent optional key stays absent, whatever its schema would make of undefined.
        value = `(t = ${read}, t !== undefined || ${JSON.stringify(key)} in v ? ${conversion.name}(t) : undefined)`;
      } else value = `${conversion.name}(${read})`;
      const written = omitted(field, value, this.omissions, this.program, `${path}.${key}`);
      fields.push(`${propertyName(key)}: ${written}`);
    }
    // One object literal: V8 allocates it with its final shape. An undefined value is left out by JSON.
    const lines = [
      'if (typeof v !== "object" || v === null || Array.isArray(v)) fail();',
      "let t, u;",
      `const o = {\n${fields.join(",\n")}\n};`,
    ];
    const catchall = def.catchall;
    if (catchall !== undefined && defOf(catchall).type !== "never") {
      // A loose object (or one with a catchall schema) keeps its other keys, after the declared ones.
      const declared = this.constant(new Set(keys));
      const conversion = this.convert(catchall, `${path}.*`);
      lines.push(
        `for (const k in v) { if (${declared}.has(k) || k === "__proto__") continue; t = ${expressionOf(conversion, "v[k]")}; if (t !== undefined${this.omissions.none ? " && t !== null" : ""}) o[k] = t; }`,
      );
    }
    lines.push("return o;");
    return lines.join("\n");
  }

  private arrayBody(def: SchemaDef, path: string): string {
    const element = this.convert(def.element!, `${path}[]`);
    // A plain array, as Zod's parse gives: slice() would keep an Array subclass and its toJSON.
    const tested = element.kind === "leaf" && element.test !== undefined;
    const copy =
      element.kind === "function"
        ? `${element.name}(v[i])`
        : tested
          ? `(t = v[i], ${element.test!("t")} ? t : fail())`
          : "v[i]";
    return `if (!Array.isArray(v)) fail();\nconst n = v.length;\nconst o = new Array(n);\n${tested ? "let t;\n" : ""}for (let i = 0; i < n; i++) o[i] = ${copy};\nreturn o;`;
  }

  private tupleBody(def: SchemaDef, path: string): string | undefined {
    const items = def.items!;
    // Optional items change the length Zod returns; those tuples are left to Zod.
    if (items.some((item) => item._zod.optin !== undefined || item._zod.optout !== undefined))
      return undefined;
    const lines = ["if (!Array.isArray(v)) fail();", `const o = new Array(${items.length});`];
    items.forEach((item, index) => {
      lines.push(`o[${index}] = ${expressionOf(this.convert(item, `${path}[${index}]`), `v[${index}]`)};`);
    });
    if (def.rest) {
      const rest = this.convert(def.rest, `${path}[]`);
      lines.push(`for (let i = ${items.length}; i < v.length; i++) o[i] = ${expressionOf(rest, "v[i]")};`);
    }
    lines.push("return o;");
    return lines.join("\n");
  }

  private recordBody(def: SchemaDef, path: string): string | undefined {
    const keyType = def.keyType!;
    const keyValues = keyType._zod.values;
    const everyKey = keyValues !== undefined && def.partial !== true;
    // Keys of a partial record over an enum are tested against it; any string is a key of a plain
    // string record. Keys Zod would check otherwise, rename, or keep unchecked are left to Zod.
    const keyTest = everyKey ? undefined : this.keyTest(keyType);
    if (!everyKey && (def.mode === "loose" || keyTest === undefined)) return undefined;
    const value = this.convert(def.valueType!, `${path}{}`);
    const lines = ['if (typeof v !== "object" || v === null || Array.isArray(v)) fail();', "const o = {};"];
    if (!everyKey) {
      lines.push(
        `for (const k of Object.keys(v)) { if (k === "__proto__") continue; ${keyTest}o[k] = ${expressionOf(value, "v[k]")}; }`,
      );
    } else {
      // A record over an enum has every key of the enum, in the enum's order.
      const keys = [...keyValues]
        .filter((key) => typeof key === "string" || typeof key === "number")
        .map(String)
        .filter((key) => key !== "__proto__");
      for (const key of keys) lines.push(`o${access(key)} = ${expressionOf(value, `v${access(key)}`)};`);
      if (def.mode === "loose") {
        const declared = this.constant(new Set(keys));
        lines.push(`for (const k in v) { if (!${declared}.has(k) && k !== "__proto__") o[k] = v[k]; }`);
      }
    }
    lines.push("return o;");
    return lines.join("\n");
  }

  /**
   * The statement a partial record's loop runs on each key before copying it: nothing for a plain
   * string key, a test of membership for an enum's or literal's keys; undefined for other keys.
   */
  private keyTest(keyType: z.ZodType): string | undefined {
    const def = defOf(keyType);
    if (def.type === "string" && (def.checks ?? []).length === 0) return "";
    const values = keyType._zod.values;
    if (values === undefined || (def.type !== "enum" && def.type !== "literal")) return undefined;
    const keys = this.constant(new Set([...values].map(String)));
    return `if (!${keys}.has(k)) fail(); `;
  }

  /** A union picks its option from the value's kind when no two options accept the same kind. */
  private unionBody(def: SchemaDef, path: string): string | undefined {
    const options = def.options!;
    const byKind = new Map<ValueKind, number>();
    for (const [index, option] of options.entries()) {
      const kinds = kindsOf(option);
      if (kinds === "any") return undefined;
      for (const kind of kinds) {
        if (byKind.has(kind)) return undefined;
        byKind.set(kind, index);
      }
    }
    const conversions = options.map((option, index) => this.convert(option, `${path}|${index}`));
    const take = (kind: ValueKind) => `return ${expressionOf(conversions[byKind.get(kind)!]!, "v")};`;
    const lines: string[] = [];
    if (byKind.has("null")) lines.push(`if (v === null) ${take("null")}`);
    if (byKind.has("array")) lines.push(`if (Array.isArray(v)) ${take("array")}`);
    const cases = [...byKind.keys()]
      .filter((kind) => kind !== "null" && kind !== "array")
      .map((kind) => `case ${JSON.stringify(kind)}: ${take(kind)}`);
    if (cases.length > 0) lines.push(`switch (typeof v) {\n${cases.join("\n")}\n}`);
    lines.push("return fail();");
    return lines.join("\n");
  }

  /** A discriminated union picks its option by the discriminator's value, as Zod does. */
  private discriminatedBody(def: SchemaDef, path: string): string | undefined {
    if (def.unionFallback === true) return undefined;
    const discriminator = def.discriminator!;
    const entries: [unknown, z.ZodType][] = [];
    for (const option of def.options!) {
      const values = option._zod.propValues?.[discriminator];
      if (defOf(option).type !== "object" || values === undefined) return undefined;
      for (const value of values) {
        if (entries.some(([known]) => known === value)) return undefined;
        entries.push([value, option]);
      }
    }
    const map = `m${this.program.afterFunctions.length}`;
    const values = this.constant(entries.map(([value]) => value));
    const names = entries.map(([value, option]) => {
      const conversion = this.convert(option, `${path}(${String(value)})`);
      return conversion.kind === "function" ? conversion.name : undefined;
    });
    if (names.some((name) => name === undefined)) return undefined;
    this.program.afterFunctions.push(
      `const ${map} = new Map([${names.map((name, index) => `[${values}[${index}], ${name}]`).join(", ")}]);`,
    );
    return [
      'if (typeof v !== "object" || v === null || Array.isArray(v)) fail();',
      `const f = ${map}.get(v${access(discriminator)});`,
      "if (f === undefined) fail();",
      "return f(v);",
    ].join("\n");
  }

  /** A function that leaves the value to Zod's parse, noted for the build-time log. */
  private fallback(schema: z.ZodType, path: string, why: string): Conversion {
    this.program.fallbacks.push(`${path === "" ? "the whole body" : path.replace(/^\./, "")} (${why})`);
    const owner = this.constant(schema);
    const name = `z${this.program.fallbacks.length - 1}`;
    this.program.functions.push(
      `function ${name}(v) {\nconst r = ${owner}.safeParse(v);\nif (!r.success) fail();\nreturn r.data;\n}`,
    );
    return { kind: "function", name };
  }

  private constant(value: unknown): string {
    return this.program.constant(value);
  }
}
