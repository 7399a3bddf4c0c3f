// A model's input and output types, as `z.input` and `z.output` give them, read more cheaply for the
// common model: an object of required fields with no extra keys. Zod builds an object's type with
// two key-filtering mapped types and a third that flattens them; every endpoint's models go through
// this, so the editor pays for it on every keystroke. For the common model the filters keep every
// key, and a mapped type over the shape gives the same type with none of that work. Whether the
// model is the common one is asked as `PlainShape<M> extends never`, not `[PlainShape<M>] extends
// [never]`: that built a one-element tuple per model and direction (the same answers, `any` and
// unions of models included; bench:types, 5k fewer allocations on the server of 400 routes and
// 5k fewer for the test client's calls).
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
  ? PlainShape<M> extends never
    ? z.output<M>
    : { -readonly [K in keyof PlainShape<M>]: PlainShape<M>[K]["_zod"]["output"] }
  : never;

/** `z.input<M>`: for the common object model, its fields' inputs over its shape (the same type). */
export type ModelInput<M> = M extends unknown
  ? PlainShape<M> extends never
    ? z.input<M>
    : { -readonly [K in keyof PlainShape<M>]: PlainShape<M>[K]["_zod"]["input"] }
  : never;

/**
 * A value as it travels in JSON, what `JSON.parse(JSON.stringify(value))` gives: a `Date` (anything
 * with `toJSON()`) becomes what that returns, a string; maps and sets become `{}`; functions,
 * symbols and bigints are not JSON (`never`); objects and arrays map their members.
 *
 * @example JsonForm<{ added: Date; tags: string[] }> // { added: string; tags: string[] }
 */
export type JsonForm<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends { toJSON(): infer J }
    ? JsonForm<J>
    : T extends bigint | symbol | ((...args: never[]) => unknown)
      ? never
      : T extends ReadonlyMap<unknown, unknown> | ReadonlySet<unknown>
        ? {}
        : T extends object
          ? { [K in keyof T]: JsonForm<T[K]> }
          : T;

/**
 * What a request may carry for a value of type `T`: a `Date` may also be sent as its ISO 8601
 * string (the server converts one before validation); everything else as it is.
 *
 * @example WireInput<{ starts: Date; title: string }> // { starts: Date | string; title: string }
 */
export type WireInput<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends Date
    ? T | string
    : T extends object
      ? { [K in keyof T]: WireInput<T[K]> }
      : T;

/**
 * `JsonForm<z.output<M>>`, the body of an answer as a client reads it: for the common object model
 * one mapped type over its shape.
 */
export type ModelJson<M> = M extends unknown
  ? PlainShape<M> extends never
    ? JsonForm<z.output<M>>
    : { -readonly [K in keyof PlainShape<M>]: JsonForm<PlainShape<M>[K]["_zod"]["output"]> }
  : never;

/** `WireInput<z.input<M>>`, what a request may carry for model `M`: for the common model, over its shape. */
export type ModelWireInput<M> = M extends unknown
  ? PlainShape<M> extends never
    ? WireInput<z.input<M>>
    : { -readonly [K in keyof PlainShape<M>]: WireInput<PlainShape<M>[K]["_zod"]["input"]> }
  : never;
