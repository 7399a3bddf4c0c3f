// How the client generator prints the object schemas the document's converter writes: a record
// over listed names as those names, any other record as an index signature.

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { objectType } from "../../src/client-generator/schema-type.ts";
import { AnonymousNames, SchemaConverter } from "../../src/openapi/schema-converter.ts";

const names = new Map<string, string>();
const printed = (schema: z.ZodType) =>
  objectType(new SchemaConverter("input", new AnonymousNames()).convert(schema), names, "");

describe("objectType", () => {
  it("prints a record over listed names (z.record(z.enum([…]), V)) as those names, each required", () => {
    expect(printed(z.record(z.enum(["read", "write"]), z.boolean()))).toBe(
      "{\n  read: boolean;\n  write: boolean;\n}",
    );
  });

  it("prints the names of a partial record (z.partialRecord) as optional, and a literal name as itself", () => {
    expect([
      printed(z.partialRecord(z.enum(["read", "x-write"]), z.int())),
      printed(z.record(z.literal("only"), z.string())),
    ]).toEqual(['{\n  read?: number;\n  "x-write"?: number;\n}', "{\n  only: string;\n}"]);
  });

  it("prints a record over any string, or over a pattern, as an index signature", () => {
    expect([
      printed(z.record(z.string(), z.int())),
      printed(z.record(z.string().regex(/^x-/), z.int())),
    ]).toEqual(["{\n  [key: string]: number;\n}", "{\n  [key: string]: number;\n}"]);
  });

  it("keeps declared properties beside extra ones under an index signature of unknown", () => {
    expect(printed(z.looseObject({ id: z.int() }).catchall(z.string()))).toBe(
      "{\n  id: number;\n  [key: string]: unknown;\n}",
    );
  });
});
