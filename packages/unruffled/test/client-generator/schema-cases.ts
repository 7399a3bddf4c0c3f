// The schemas the agreement test declares, each with values a client sends and a handler answers.
// An explicit table: each row is one kind of Zod 4 schema, with its edge values.
import { z } from "zod";

/** How a schema is declared: a JSON body, a response model, a query parameter, a query model's field. */
export type Use = "body" | "answer" | "query" | "field";

export const USES: readonly Use[] = ["body", "answer", "query", "field"];

export interface SchemaCase {
  /** An identifier: the routes are named `<name>_<use>`. */
  name: string;
  schema: z.ZodType;
  /** Values a client sends and the server accepts (a `Date` where the schema reads one). */
  accepted: readonly unknown[];
  /** Values accepted only in JSON (a body, an answer): null, which text (a query) cannot carry. */
  acceptedInJson?: readonly unknown[];
  /** Values the server refuses with a 422. */
  refused?: readonly unknown[];
  /** Values refused only when read from text (a query): what text cannot carry. */
  refusedInText?: readonly unknown[];
  /**
   * Values refused only in a JSON body: a query model reads its declared names and no other, so
   * the client sends no other and a closed object has nothing to refuse there.
   */
  refusedInBody?: readonly unknown[];
  /** What a handler answers through the model (its input type); `accepted` and `acceptedInJson` when not given. */
  answers?: readonly unknown[];
  /** The uses the app refuses when it is built, with the words its message says the type is. */
  notBuilt?: Partial<Record<Use, string>>;
  /**
   * Refused values that the document cannot describe (a refinement, a pipe's second schema, Zod's
   * own rule for a format): the server refuses them, though the document's schema admits them.
   */
  beyondDocument?: readonly unknown[];
  /** The same, as a rule, for sampled values. */
  beyondDocumentWhen?: (value: unknown) => boolean;
}

interface TreeNode {
  id: number;
  children: TreeNode[];
}
const Tree: z.ZodType<TreeNode> = z.object({
  id: z.int(),
  get children() {
    return z.array(Tree);
  },
});
type Nested = number | Nested[];
const NestedList: z.ZodType<Nested> = z.lazy(() => z.union([z.int(), z.array(NestedList)]));

const UNSUPPORTED = (type: string): Partial<Record<Use, string>> => ({
  body: type,
  query: type,
  field: `object with a field "v" of type ${type}`,
});
/** Refused where values are text (a query, its model's field); a JSON body takes it. */
const ONLY_IN_JSON = (type: string): Partial<Record<Use, string>> => ({
  query: type,
  field: `object with a field "v" of type ${type}`,
});
const NOT_JSON = (type: string): Partial<Record<Use, string>> => ({
  ...UNSUPPORTED(type),
  answer: `the model is a ${type}`,
});
const MODEL_ONLY_IN_BODY: Partial<Record<Use, string>> = { field: 'object with a field "v" of type object' };

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const AT = new Date("2026-03-01T09:30:00.000Z");

export const SCHEMA_CASES: readonly SchemaCase[] = [
  {
    name: "int",
    schema: z.int(),
    accepted: [0, -5, MAX_SAFE, -MAX_SAFE],
    // z.int() is a safe integer, and the document says its bounds.
    refused: [1.5, MAX_SAFE + 1, -MAX_SAFE - 1, 1e300],
  },
  {
    name: "number_bounds",
    schema: z.number().gt(0).lt(10),
    accepted: [0.001, 9.999, 5],
    refused: [0, 10, -1],
  },
  { name: "multiple_of", schema: z.number().multipleOf(0.5), accepted: [1.5, 0, -2], refused: [1.25] },
  { name: "int_range", schema: z.int().min(-3).max(3), accepted: [-3, 3], refused: [-4, 4, 2.5] },
  {
    name: "string_length",
    schema: z.string().min(2).max(4),
    // Both count characters, not UTF-16 units: an emoji is one.
    accepted: ["ab", "abcd", "é✓", "😀😀😀😀"],
    refused: ["a", "abcde", "😀😀😀😀😀"],
  },
  { name: "regex", schema: z.string().regex(/^[a-z]+$/), accepted: ["abc"], refused: ["ABC", ""] },
  { name: "email", schema: z.email(), accepted: ["ann@example.org"], refused: ["ann"] },
  {
    name: "uuid",
    schema: z.uuid(),
    accepted: ["123e4567-e89b-42d3-a456-426614174000"],
    refused: ["not-a-uuid"],
  },
  { name: "url", schema: z.url(), accepted: ["https://example.org/a?b=1"], refused: ["example"] },
  {
    name: "iso_datetime",
    schema: z.iso.datetime(),
    accepted: ["2026-03-01T09:30:00Z", "2026-03-01T09:30:00.123Z"],
    refused: ["2026-03-01"],
    // Zod wants a Z unless { offset: true }; `format: date-time` admits an offset (docs/openapi.md).
    beyondDocument: ["2026-03-01T09:30:00+01:00"],
  },
  {
    name: "iso_date",
    schema: z.iso.date(),
    accepted: ["2026-02-28"],
    refused: ["2026-13-01", "2026-03-01T00:00:00Z"],
  },
  { name: "iso_time", schema: z.iso.time(), accepted: ["09:30", "09:30:15.5"], refused: ["25:00"] },
  { name: "ulid", schema: z.ulid(), accepted: ["01ARZ3NDEKTSV4RRFFQ69G5FAV"], refused: ["01ARZ3"] },
  {
    name: "string_enum",
    schema: z.enum(["draft", "final"]),
    accepted: ["draft", "final"],
    refused: ["other"],
  },
  { name: "number_enum", schema: z.enum({ low: 1, high: 2 }), accepted: [1, 2], refused: [3] },
  { name: "boolean", schema: z.boolean(), accepted: [true, false] },
  { name: "literal_string", schema: z.literal("on"), accepted: ["on"], refused: ["off"] },
  { name: "literal_number", schema: z.literal(3), accepted: [3], refused: [4] },
  { name: "literal_true", schema: z.literal(true), accepted: [true], refused: [false] },
  {
    name: "literal_null",
    schema: z.literal(null),
    accepted: [null],
    refused: [0],
    notBuilt: ONLY_IN_JSON("literal null"),
  },
  { name: "optional", schema: z.string().optional(), accepted: ["x", undefined], refused: [] },
  { name: "nullable", schema: z.string().nullable(), accepted: ["x", "null"], acceptedInJson: [null] },
  {
    name: "nullish",
    schema: z.int().nullish(),
    accepted: [1, undefined],
    acceptedInJson: [null],
    refused: [1.5],
  },
  {
    name: "nullable_default",
    schema: z.enum(["a", "b"]).nullable().default(null),
    accepted: ["a", undefined],
    acceptedInJson: [null],
    answers: ["a", null],
  },
  { name: "with_default", schema: z.int().default(3), accepted: [4, undefined], answers: [4] },
  { name: "with_catch", schema: z.int().catch(7), accepted: [4], answers: [4] },
  {
    name: "array",
    schema: z.array(z.int()).min(1).max(3),
    accepted: [[1], [1, 2, 3]],
    refused: [[1, 2, 3, 4]],
  },
  {
    name: "list",
    schema: z.array(z.string()),
    accepted: [["a"], ["", "a&b=c", "100%", " +"]],
    // An empty list is no name in a query: a required one is missing (documented minItems: 1).
    acceptedInJson: [[]],
    refusedInText: [[]],
  },
  { name: "text", schema: z.string(), accepted: ["", " ", "a&b=c#d", "100% +1", "é✓😀", "null", "\u0000x"] },
  { name: "number", schema: z.number(), accepted: [0, -0, 1e21, 5e-324, -1.5e-7, Number.MAX_VALUE] },
  { name: "string_or_int", schema: z.union([z.int(), z.string()]), accepted: [1, "a"] },
  { name: "date", schema: z.date(), accepted: [AT] },
  { name: "branded", schema: z.string().brand<"StudentId">(), accepted: ["s-1"] },
  {
    name: "refined",
    schema: z.int().refine((n) => n % 2 === 0, "even"),
    accepted: [2],
    refused: [3],
    beyondDocument: [3],
  },
  {
    name: "template",
    schema: z.templateLiteral(["id-", z.int()]),
    accepted: ["id-3"],
    notBuilt: ONLY_IN_JSON("template_literal"),
  },
  {
    name: "tuple",
    schema: z.tuple([z.string(), z.int()]),
    accepted: [["a", 1]],
    notBuilt: ONLY_IN_JSON("tuple"),
  },
  {
    name: "tuple_rest",
    schema: z.tuple([z.string()], z.int()),
    accepted: [["a"], ["a", 1, 2]],
    notBuilt: ONLY_IN_JSON("tuple"),
  },
  {
    name: "record",
    schema: z.record(z.string(), z.int()),
    accepted: [{}, { a: 1 }],
    notBuilt: ONLY_IN_JSON("record"),
  },
  {
    name: "enum_record",
    schema: z.record(z.enum(["read", "write"]), z.boolean()),
    accepted: [{ read: true, write: false }],
    notBuilt: ONLY_IN_JSON("record"),
  },
  {
    name: "object",
    schema: z.object({ a: z.int(), b: z.string().optional(), at: z.date(), n: z.int().default(1) }),
    accepted: [
      { a: 1, at: AT },
      { a: 1, b: "x", at: AT, n: 2 },
    ],
    refused: [{ a: 1 }, { a: 1.5, at: AT }],
    answers: [
      { a: 1, at: AT },
      { a: 1, b: "x", at: AT, n: 2 },
    ],
    notBuilt: { field: 'object with a field "v" of type object' },
  },
  {
    name: "strict_object",
    schema: z.strictObject({ a: z.int() }),
    accepted: [{ a: 1 }],
    refusedInBody: [{ a: 1, b: 2 }],
    notBuilt: MODEL_ONLY_IN_BODY,
  },
  {
    name: "loose_object",
    schema: z.looseObject({ a: z.int() }),
    accepted: [{ a: 1 }],
    // A query model reads its declared names: the others travel in JSON only.
    acceptedInJson: [{ a: 1, b: [2] }],
    refused: [{}],
    notBuilt: MODEL_ONLY_IN_BODY,
  },
  {
    name: "catchall_object",
    schema: z.object({ a: z.int() }).catchall(z.string()),
    accepted: [{ a: 1 }],
    acceptedInJson: [{ a: 1, b: "x" }],
    refused: [{ b: "x" }],
    refusedInBody: [{ a: 1, b: 2 }],
    notBuilt: MODEL_ONLY_IN_BODY,
  },
  {
    name: "nullable_object",
    schema: z.object({ a: z.int(), b: z.string().nullable() }).nullable(),
    accepted: [{ a: 1, b: "x" }],
    acceptedInJson: [null, { a: 1, b: null }],
    refused: [{ a: 1 }],
    notBuilt: MODEL_ONLY_IN_BODY,
  },
  {
    name: "readonly_object",
    schema: z.object({ a: z.int() }).readonly(),
    accepted: [{ a: 1 }],
    notBuilt: MODEL_ONLY_IN_BODY,
  },
  {
    name: "union_of_models",
    schema: z.union([z.object({ a: z.int() }), z.object({ b: z.string() })]),
    accepted: [{ a: 1 }, { b: "x" }],
    notBuilt: {
      query: "union of models",
      field: 'object with a field "v" of type union',
    },
  },
  {
    name: "discriminated",
    schema: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("a"), a: z.int() }),
      z.object({ kind: z.literal("b"), b: z.string() }),
    ]),
    accepted: [
      { kind: "a", a: 1 },
      { kind: "b", b: "x" },
    ],
    notBuilt: {
      query: "union of models",
      field: 'object with a field "v" of type union',
    },
  },
  {
    name: "intersection",
    schema: z.intersection(z.object({ a: z.int() }), z.object({ b: z.string() })),
    accepted: [{ a: 1, b: "x" }],
    notBuilt: ONLY_IN_JSON("intersection"),
  },
  {
    name: "recursive",
    schema: Tree,
    accepted: [{ id: 1, children: [{ id: 2, children: [] }] }],
    refused: [{ id: 1 }],
    notBuilt: {
      query: 'object with a field "children" of type array',
      field: 'object with a field "v" of type object',
    },
  },
  { name: "lazy", schema: NestedList, accepted: [1, [1, [2, []]]], notBuilt: ONLY_IN_JSON("lazy") },
  {
    name: "transform",
    schema: z.string().transform((text) => text.length),
    accepted: ["abc"],
  },
  {
    name: "pipe",
    schema: z.string().pipe(z.coerce.number()),
    accepted: ["12"],
    refused: ["twelve"],
    beyondDocument: ["twelve"],
  },
  {
    name: "preprocess",
    schema: z.preprocess((value) => (typeof value === "string" ? Number(value) : value), z.int()),
    accepted: [3],
    notBuilt: UNSUPPORTED("transform"),
  },
  {
    name: "unknown",
    schema: z.unknown(),
    accepted: [1, "x", null, { a: [1] }],
    notBuilt: ONLY_IN_JSON("unknown"),
  },
  { name: "any", schema: z.any(), accepted: [1], notBuilt: ONLY_IN_JSON("any") },
  { name: "never", schema: z.never(), accepted: [], notBuilt: UNSUPPORTED("never") },
  { name: "bigint", schema: z.bigint(), accepted: [], notBuilt: NOT_JSON("bigint") },
  { name: "map", schema: z.map(z.string(), z.int()), accepted: [], notBuilt: NOT_JSON("map") },
  { name: "set", schema: z.set(z.int()), accepted: [], notBuilt: NOT_JSON("set") },
  { name: "symbol", schema: z.symbol(), accepted: [], notBuilt: NOT_JSON("symbol") },
  { name: "function", schema: z.function(), accepted: [], notBuilt: NOT_JSON("function") },
  { name: "promise", schema: z.promise(z.int()), accepted: [], notBuilt: NOT_JSON("promise") },
];
