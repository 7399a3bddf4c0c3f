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
 * The shape of the common model: an object with named keys, at least one, all of them required in
 * both directions (none optional in input or output), and no extra keys; `never` for any other
 * model. Read once per model and shared by its input and output types: a test's call reads the
 * directions the server's declarations did not (a body's input, an answer's output), and finds
 * this already known.
 */
type PlainShape<M> =
  M extends ObjectSchema<infer Shape extends z.core.$ZodShape, infer Config extends z.core.$ZodObjectConfig>
    ? [
        keyof Config["in"] | keyof Config["out"] | Extract<Shape[keyof Shape], OptionalIn | OptionalOut>,
      ] extends [never]
      ? string extends keyof Shape
        ? never
        : [keyof Shape] extends [never]
          ? never
          : Shape
      : never
    : never;

/** `z.output<M>`: for the common object model, its fields' outputs over its shape (the same type). */
export type ModelOutput<M> = M extends unknown
  ? [PlainShape<M>] extends [never]
    ? z.output<M>
    : { -readonly [K in keyof PlainShape<M>]: PlainShape<M>[K]["_zod"]["output"] }
  : never;

/** `z.input<M>`: for the common object model, its fields' inputs over its shape (the same type). */
export type ModelInput<M> = M extends unknown
  ? [PlainShape<M>] extends [never]
    ? z.input<M>
    : { -readonly [K in keyof PlainShape<M>]: PlainShape<M>[K]["_zod"]["input"] }
  : never;
