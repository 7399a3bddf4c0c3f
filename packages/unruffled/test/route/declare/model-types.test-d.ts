// Type tests of ModelOutput and ModelInput: each is exactly Zod's own type, for the common object
// model (read over its shape) and for every model that takes Zod's way. Checked by `tsc`, never run.
import { expectTypeOf } from "vitest";
import { z } from "zod";
import * as zm from "zod/mini";
import type { ModelInput, ModelOutput } from "../../../src/route/declare/model-types.ts";

// The common model: required fields, no extra keys.
const Item = z.object({ id: z.int(), name: z.string(), tags: z.array(z.string()) });
expectTypeOf<ModelOutput<typeof Item>>().toEqualTypeOf<z.output<typeof Item>>();
expectTypeOf<ModelInput<typeof Item>>().toEqualTypeOf<z.input<typeof Item>>();
expectTypeOf<ModelOutput<typeof Item>>().toEqualTypeOf<{ id: number; name: string; tags: string[] }>();

// A strict object has no extra keys either.
const StrictItem = z.strictObject({ id: z.int() });
expectTypeOf<ModelOutput<typeof StrictItem>>().toEqualTypeOf<z.output<typeof StrictItem>>();
expectTypeOf<ModelInput<typeof StrictItem>>().toEqualTypeOf<z.input<typeof StrictItem>>();

// Fields whose input and output differ: a transform, a coercion, a pipe.
const Converted = z.object({
  when: z.string().transform((text) => new Date(text)),
  count: z.coerce.number(),
  code: z.string().pipe(z.enum(["a", "b"])),
});
expectTypeOf<ModelOutput<typeof Converted>>().toEqualTypeOf<z.output<typeof Converted>>();
expectTypeOf<ModelInput<typeof Converted>>().toEqualTypeOf<z.input<typeof Converted>>();

// An optional field makes its key optional: Zod's way.
const WithOptional = z.object({ id: z.int(), nickname: z.string().optional() });
expectTypeOf<ModelOutput<typeof WithOptional>>().toEqualTypeOf<z.output<typeof WithOptional>>();
expectTypeOf<ModelInput<typeof WithOptional>>().toEqualTypeOf<z.input<typeof WithOptional>>();

// A defaulted field is optional on input only.
const WithDefault = z.object({ id: z.int(), page: z.int().default(1) });
expectTypeOf<ModelOutput<typeof WithDefault>>().toEqualTypeOf<z.output<typeof WithDefault>>();
expectTypeOf<ModelInput<typeof WithDefault>>().toEqualTypeOf<z.input<typeof WithDefault>>();
expectTypeOf<ModelInput<typeof WithDefault>>().toEqualTypeOf<{ id: number; page?: number | undefined }>();

// Extra keys: a loose object and a catchall.
const Loose = z.looseObject({ id: z.int() });
expectTypeOf<ModelOutput<typeof Loose>>().toEqualTypeOf<z.output<typeof Loose>>();
expectTypeOf<ModelInput<typeof Loose>>().toEqualTypeOf<z.input<typeof Loose>>();
const CatchAll = z.object({ id: z.int() }).catchall(z.string());
expectTypeOf<ModelOutput<typeof CatchAll>>().toEqualTypeOf<z.output<typeof CatchAll>>();
expectTypeOf<ModelInput<typeof CatchAll>>().toEqualTypeOf<z.input<typeof CatchAll>>();

// The empty object and a record.
const Empty = z.object({});
expectTypeOf<ModelOutput<typeof Empty>>().toEqualTypeOf<z.output<typeof Empty>>();
expectTypeOf<ModelInput<typeof Empty>>().toEqualTypeOf<z.input<typeof Empty>>();
const Scores = z.record(z.string(), z.int());
expectTypeOf<ModelOutput<typeof Scores>>().toEqualTypeOf<z.output<typeof Scores>>();
expectTypeOf<ModelInput<typeof Scores>>().toEqualTypeOf<z.input<typeof Scores>>();

// A nested object keeps Zod's type inside the fast one.
const Nested = z.object({ owner: WithOptional, items: z.array(Item) });
expectTypeOf<ModelOutput<typeof Nested>>().toEqualTypeOf<z.output<typeof Nested>>();
expectTypeOf<ModelInput<typeof Nested>>().toEqualTypeOf<z.input<typeof Nested>>();

// Models that are not objects: a list, a scalar, a union, an optional object, a readonly object.
const Items = z.array(Item);
expectTypeOf<ModelOutput<typeof Items>>().toEqualTypeOf<z.output<typeof Items>>();
const Count = z.int();
expectTypeOf<ModelInput<typeof Count>>().toEqualTypeOf<number>();
const ItemOrNull = z.union([Item, z.null()]);
expectTypeOf<ModelOutput<typeof ItemOrNull>>().toEqualTypeOf<z.output<typeof ItemOrNull>>();
const MaybeItem = Item.optional();
expectTypeOf<ModelInput<typeof MaybeItem>>().toEqualTypeOf<z.input<typeof MaybeItem>>();
const Frozen = Item.readonly();
expectTypeOf<ModelOutput<typeof Frozen>>().toEqualTypeOf<z.output<typeof Frozen>>();

// A union of models is read model by model.
expectTypeOf<ModelOutput<typeof Item | typeof Count>>().toEqualTypeOf<z.output<typeof Item> | number>();
// Two common models stay two: each keeps its own keys (not the keys the two shapes share).
const Tag = z.object({ label: z.string(), id: z.int() });
expectTypeOf<ModelOutput<typeof Item | typeof Tag>>().toEqualTypeOf<
  z.output<typeof Item> | z.output<typeof Tag>
>();
expectTypeOf<ModelInput<typeof Item | typeof WithDefault>>().toEqualTypeOf<
  z.input<typeof Item> | z.input<typeof WithDefault>
>();

// A zod/mini object is read over its shape too.
const MiniItem = zm.object({ id: zm.int(), name: zm.string() });
expectTypeOf<ModelOutput<typeof MiniItem>>().toEqualTypeOf<zm.output<typeof MiniItem>>();
expectTypeOf<ModelInput<typeof MiniItem>>().toEqualTypeOf<zm.input<typeof MiniItem>>();
