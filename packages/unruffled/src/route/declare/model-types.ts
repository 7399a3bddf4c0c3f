// A model's input and output types, as `z.input` and `z.output` give them, read more cheaply for the
// common model: an object of required fields with no extra keys. Zod builds an object's type with
// two key-filtering mapped types and a third that flattens them; every endpoint's models go through
// this, so the editor pays for it on every keystroke. For the common model the filters keep every
// key, and a mapped type over the shape gives the same type with none of that work.
import type { z } from "zod";

/** A field Zod may leave out of an object's output (`.optional()`). */
type OptionalOut = { readonly _zod: { readonly optout: "optional" } };

/** A field Zod accepts without a value (`.optional()`, `.default()`). */
type OptionalIn = { readonly _zod: { readonly optin: "optional" | "defaulted" } };

/** An object schema, classic or core: its shape and its configuration (`$strip`, `$loose`, a catchall). */
type ObjectSchema<Shape extends z.core.$ZodShape, Config extends z.core.$ZodObjectConfig> = {
  readonly _zod: z.core.$ZodObjectInternals<Shape, Config>;
};

/**
 * Whether an object type of `Shape` with extra keys `Extra` is the common model: named keys, at least
 * one, all of them required (none `Optional`), and no extra keys. Any other takes Zod's own type.
 */
type IsPlainObject<Shape, Extra, Optional> = [keyof Extra] extends [never]
  ? string extends keyof Shape
    ? false
    : [keyof Shape] extends [never]
      ? false
      : [Extract<Shape[keyof Shape], Optional>] extends [never]
        ? true
        : false
  : false;

/** `z.output<M>`: for the common object model, its fields' outputs over its shape (the same type). */
export type ModelOutput<M> =
  M extends ObjectSchema<infer Shape extends z.core.$ZodShape, infer Config extends z.core.$ZodObjectConfig>
    ? IsPlainObject<Shape, Config["out"], OptionalOut> extends true
      ? { -readonly [K in keyof Shape]: Shape[K]["_zod"]["output"] }
      : z.output<M>
    : z.output<M>;

/** `z.input<M>`: for the common object model, its fields' inputs over its shape (the same type). */
export type ModelInput<M> =
  M extends ObjectSchema<infer Shape extends z.core.$ZodShape, infer Config extends z.core.$ZodObjectConfig>
    ? IsPlainObject<Shape, Config["in"], OptionalIn> extends true
      ? { -readonly [K in keyof Shape]: Shape[K]["_zod"]["input"] }
      : z.input<M>
    : z.input<M>;
