import { z } from "zod";
import { NO_OMISSIONS, type Omissions } from "../declare/response-spec.ts";
import { writePicker } from "./picker-writer.ts";

/** Thrown by a compiled picker when a value is not of the kind its model declares. */
export const WRONG_KIND = new TypeError("The value is not of the kind its model declares");

/** A model's serializer, compiled once: what it writes, and what it leaves to Zod. */
export interface CompiledSerializer {
  /**
   * A copy of `value` holding only what the model declares, ready for `JSON.stringify`; throws
   * `WRONG_KIND` when a value is not of its declared kind (then Zod can say where).
   */
  pick(value: unknown): unknown;
  /** The parts that go through Zod's parse instead, and why; "the whole body" when nothing compiled. */
  fallbacks: readonly string[];
  /** With `exclude_none`: fields that may be null but are required (a definition error). */
  requiredNullable: readonly string[];
}

// One cache for each combination of omissions: a model used by several routes is compiled once.
const compiled = [0, 1, 2, 3].map(() => new WeakMap<z.ZodType, CompiledSerializer>());

const fail = (): never => {
  throw WRONG_KIND;
};

/**
 * Compiles a Zod model into a field picker: generated JavaScript that copies only the declared keys
 * (at every depth: objects in arrays, records, union options), so that `JSON.stringify(pick(value))`
 * equals `JSON.stringify(model.parse(value))` for every value the model accepts, at about the cost
 * of `JSON.stringify` alone. What the picker cannot express (transforms, coercion, ambiguous unions)
 * is parsed by Zod in place. A model used by several routes is compiled once.
 *
 * @example JSON.stringify(compileSerializer(Student).pick({ ...student, password_hash })) // no password_hash
 */
export function compileSerializer(model: z.ZodType, omissions: Omissions = NO_OMISSIONS): CompiledSerializer {
  const cache = compiled[(omissions.none ? 1 : 0) + (omissions.defaults ? 2 : 0)]!;
  let serializer = cache.get(model);
  if (serializer === undefined) {
    serializer = build(model, omissions);
    cache.set(model, serializer);
  }
  return serializer;
}

function build(model: z.ZodType, omissions: Omissions): CompiledSerializer {
  // Where code cannot be generated (a strict Content-Security-Policy), Zod parses the whole body.
  if (!z.util.allowsEval.value) {
    return {
      pick: (value) => {
        const result = model.safeParse(value);
        if (!result.success) throw WRONG_KIND;
        return result.data;
      },
      fallbacks: ["the whole body (this runtime does not allow generated code)"],
      requiredNullable: [],
    };
  }
  const source = writePicker(model, omissions);
  const pick = new Function("c", "fail", source.code)(source.constants, fail) as (value: unknown) => unknown;
  return { pick, fallbacks: source.fallbacks, requiredNullable: source.requiredNullable };
}
