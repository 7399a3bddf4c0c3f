import fc from "fast-check";
import { modelValues, UNDECLARED_VALUE } from "hostile-input/model-values";
import { ResponseValidationError } from "unruffled";
import { compileSerializer, p, type ResponseSerializer, responseSerializersOf } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const Address = z.object({ street: z.string(), city: z.string().max(50), postcode: z.string().nullable() });

interface Branch {
  label: string;
  branches: Branch[];
}
const Branch: z.ZodType<Branch> = z.lazy(() => z.object({ label: z.string(), branches: z.array(Branch) }));

/** A model with every shape a response model tends to have. */
const Profile = z.object({
  id: z.int(),
  name: z.string().max(100),
  nickname: z.string().optional(),
  email: z.email().nullable(),
  born: z.iso.date(),
  updated_at: z.iso.datetime(),
  score: z.number().nullable(),
  active: z.boolean().default(true),
  role: z.enum(["student", "teacher", "admin"]),
  contact: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("email"), address: z.email() }),
    z.object({ kind: z.literal("post"), address: Address }),
  ]),
  tag: z.union([z.string(), z.int(), z.null()]),
  either: z.union([z.object({ label: z.string() }), z.array(z.int())]),
  labels: z.record(z.string(), z.object({ colour: z.string(), weight: z.number().optional() })),
  levels: z.record(z.enum(["low", "high"]), z.int()),
  names: z.partialRecord(z.enum(["en", "fr", "de"]), z.string()),
  grid: z.array(z.array(z.object({ x: z.int(), y: z.int() }))),
  notes: z.array(z.string()).optional(),
  pair: z.tuple([z.string(), z.number()]),
  versioned: z.looseObject({ version: z.int() }),
  anything: z.unknown(),
  nested: z.object({ deeper: z.object({ addresses: z.array(Address) }) }),
  tree: Branch,
  scores: z.object({ total: z.int() }).catchall(z.object({ points: z.int() })),
  sealed: z.strictObject({ code: z.string(), flags: z.array(z.boolean()) }),
  series: z.tuple([z.string(), z.object({ x: z.int() })], z.int()),
  motto: z.string().prefault("none"),
  level: z.int().optional().nonoptional(),
});

interface Category {
  name: string;
  children: Category[];
}
const Category: z.ZodType<Category> = z.object({
  name: z.string(),
  get children() {
    return z.array(Category);
  },
});

/** Parts the picker cannot express: Zod parses them in place. */
const Rewritten = z.object({
  title: z.string().trim(),
  slug: z.string().transform((text) => text.toLowerCase()),
  either: z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.int() })]),
  kept: z.object({ id: z.int() }),
});

function serializerOf(model: z.ZodType): ResponseSerializer {
  return responseSerializersOf([p.ResponseSpec({ model })], 'endpoint "test" (GET /test)')!.get(200)!;
}

/** What Zod's parse gives, as JSON: the contract. */
function parsedJson(model: z.ZodType, value: unknown): string {
  return JSON.stringify(model.parse(value)) ?? "null";
}

describe("the compiled serializer", () => {
  it("writes what JSON.stringify(model.parse(value)) writes, for every value the model accepts", () => {
    const serializer = serializerOf(Profile);
    expect(serializer.fallbacks).toEqual([]);
    const { pick } = compileSerializer(Profile);
    fc.assert(
      fc.property(modelValues(Profile), (value) => {
        const expected = parsedJson(Profile, value);
        // The picker's own output, not Zod's: write() would hide a picker that refused the value.
        expect(JSON.stringify(pick(value))).toBe(expected);
        expect(serializer.write(value)).toBe(expected);
        expect(serializer.writeChecked(value)).toBe(expected);
        expect(expected).not.toContain(UNDECLARED_VALUE);
      }),
      { numRuns: 300 },
    );
  });

  it("follows recursive models to every depth", () => {
    const serializer = serializerOf(Category);
    expect(serializer.fallbacks).toEqual([]);
    const { pick } = compileSerializer(Category);
    fc.assert(
      fc.property(modelValues(Category), (value) => {
        expect(JSON.stringify(pick(value))).toBe(parsedJson(Category, value));
        expect(serializer.write(value)).toBe(parsedJson(Category, value));
      }),
    );
  });

  it("leaves to Zod what it cannot express, says which, and still writes what Zod's parse gives", () => {
    const serializer = serializerOf(Rewritten);
    expect(serializer.fallbacks).toEqual([
      "title (its parse rewrites the value: .trim(), .toLowerCase(), .overwrite(), z.coerce)",
      "slug (a transform or pipe)",
      "either (a union whose options accept the same kind of value)",
    ]);
    fc.assert(
      fc.property(modelValues(Rewritten), (value) => {
        expect(serializer.write(value)).toBe(parsedJson(Rewritten, value));
      }),
    );
  });

  it("leaves out undeclared fields at every depth: objects in lists, in records, in union options", () => {
    const serializer = serializerOf(Profile);
    const secret = { password_hash: "x" };
    const value = {
      id: 1,
      name: "Zoë",
      email: null,
      born: "2001-02-03",
      updated_at: "2024-01-01T00:00:00.000Z",
      score: null,
      role: "admin",
      contact: {
        kind: "post",
        address: { street: "Rue", city: "Łódź", postcode: null, ...secret },
        ...secret,
      },
      tag: null,
      either: { label: "l", ...secret },
      labels: { a: { colour: "red", ...secret } },
      levels: { low: 1, high: 2, ...secret },
      names: { fr: "Zoé" },
      grid: [[{ x: 1, y: 2, ...secret }]],
      pair: ["p", 1],
      versioned: { version: 2, kept: true },
      anything: { kept: true },
      nested: { deeper: { addresses: [{ street: "S", city: "C", postcode: "1", ...secret }], ...secret } },
      tree: { label: "root", branches: [{ label: "leaf", branches: [], ...secret }], ...secret },
      scores: { total: 3, math: { points: 2, ...secret } },
      sealed: { code: "c", flags: [true] },
      series: ["s", { x: 1, ...secret }, 7, 8],
      level: 4,
      ...secret,
    };
    expect(JSON.parse(serializer.write(value))).toEqual({
      id: 1,
      name: "Zoë",
      email: null,
      born: "2001-02-03",
      updated_at: "2024-01-01T00:00:00.000Z",
      score: null,
      active: true,
      role: "admin",
      contact: { kind: "post", address: { street: "Rue", city: "Łódź", postcode: null } },
      tag: null,
      either: { label: "l" },
      labels: { a: { colour: "red" } },
      levels: { low: 1, high: 2 },
      names: { fr: "Zoé" },
      grid: [[{ x: 1, y: 2 }]],
      pair: ["p", 1],
      versioned: { version: 2, kept: true },
      anything: { kept: true },
      nested: { deeper: { addresses: [{ street: "S", city: "C", postcode: "1" }] } },
      tree: { label: "root", branches: [{ label: "leaf", branches: [] }] },
      scores: { total: 3, math: { points: 2 } },
      sealed: { code: "c", flags: [true] },
      series: ["s", { x: 1 }, 7, 8],
      motto: "none",
      level: 4,
    });
  });

  it("copies a list of simple values into a plain array: an Array subclass's toJSON is not called", () => {
    // slice() would keep the subclass, and JSON.stringify would send what its toJSON returns.
    class Tags extends Array<string> {
      toJSON() {
        return { password_hash: "$argon2id$secret" };
      }
    }
    const Tagged = z.object({ tags: z.array(z.string()), anything: z.array(z.unknown()) });
    const serializer = serializerOf(Tagged);
    const value = { tags: Tags.from(["a", "b"]), anything: Tags.from(["c"]) };
    expect(serializer.fallbacks).toEqual([]);
    expect(serializer.write(value)).toBe('{"tags":["a","b"],"anything":["c"]}');
    expect(serializer.write(value)).toBe(parsedJson(Tagged, value));
  });

  it("writes a Map or a Set as Zod's fresh copy is written, {}: its own keys and a subclass's toJSON stay home", () => {
    class Secretive extends Map<string, number> {
      toJSON() {
        return { password_hash: "$argon2id$secret" };
      }
    }
    const set = Object.assign(new Set([1]), { password_hash: "$argon2id$secret" });
    const Collections = z.object({ counts: z.map(z.string(), z.int()), ids: z.set(z.int()) });
    const value = { counts: new Secretive([["a", 1]]), ids: set };
    expect(serializerOf(Collections).write(value)).toBe('{"counts":{},"ids":{}}');
    expect(serializerOf(Collections).write(value)).toBe(parsedJson(Collections, value));
  });

  it("leaves to Zod an object, list, record, tuple or union whose parse rewrites it (.overwrite()), and says so", () => {
    const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
    const Overwritten = z.object({
      ids: z.array(z.int()).overwrite(sorted),
      page: z.object({ n: z.int() }).overwrite((page) => ({ n: page.n + 1 })),
      totals: z.record(z.string(), z.int()).overwrite((totals) => ({ ...totals, all: 0 })),
      pair: z.tuple([z.int(), z.int()]).overwrite(([a, b]) => [b, a]),
      either: z.union([z.int(), z.array(z.int())]).overwrite((x) => (Array.isArray(x) ? sorted(x) : x)),
      tree: z.lazy(() => z.array(z.int())).overwrite(sorted),
    });
    const serializer = serializerOf(Overwritten);
    const why = "its parse rewrites the value: .trim(), .toLowerCase(), .overwrite(), z.coerce";
    expect(serializer.fallbacks).toEqual(
      ["ids", "page", "totals", "pair", "either", "tree"].map((field) => `${field} (${why})`),
    );
    const value = {
      ids: [3, 1, 2],
      page: { n: 1 },
      totals: { a: 1 },
      pair: [1, 2],
      either: [2, 1],
      tree: [9, 8],
    };
    expect(serializer.write(value)).toBe(
      '{"ids":[1,2,3],"page":{"n":2},"totals":{"a":1,"all":0},"pair":[2,1],"either":[1,2],"tree":[8,9]}',
    );
    expect(serializer.write(value)).toBe(parsedJson(Overwritten, value));
  });

  it("never sends a key that a record's key schema refuses: the answer is refused instead", () => {
    const byLanguage = z.object({ names: z.partialRecord(z.enum(["en", "fr"]), z.string()) });
    const serializer = serializerOf(byLanguage);
    expect(serializer.fallbacks).toEqual([]);
    expect(serializer.write({ names: { en: "x" } })).toBe('{"names":{"en":"x"}}');
    expect(() => serializer.write({ names: { en: "x", password_hash: "secret" } })).toThrow(
      new ResponseValidationError(
        'endpoint "test" (GET /test)',
        200,
        "names",
        'a body that its model refuses: names: Unrecognized key: "password_hash"',
      ),
    );
  });

  it("leaves records whose keys Zod checks in another way to Zod, which refuses an undeclared key", () => {
    const byCode = z.object({ codes: z.record(z.string().regex(/^[A-Z]{3}$/), z.int()) });
    const serializer = serializerOf(byCode);
    expect(serializer.fallbacks).toEqual([
      "codes (a record whose keys Zod checks, rewrites or keeps unchecked)",
    ]);
    expect(serializer.write({ codes: { ABC: 1 } })).toBe('{"codes":{"ABC":1}}');
    expect(() => serializer.write({ codes: { ABC: 1, password_hash: 2 } })).toThrow(ResponseValidationError);
  });
});
