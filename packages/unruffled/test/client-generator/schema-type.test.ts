// How the client generator prints an object schema's extra properties: a record over listed names
// as those names, any other as an index signature.
import { describe, expect, it } from "vitest";
import { objectType } from "../../src/client-generator/schema-type.ts";

const names = new Map<string, string>();

describe("objectType", () => {
  it("prints a record over listed names (z.record(z.enum([…]), V)) as those names, each required", () => {
    const schema = {
      type: "object",
      propertyNames: { type: "string", enum: ["read", "write"] },
      additionalProperties: { type: "boolean" },
      required: ["read", "write"],
    };
    expect(objectType(schema, names, "")).toBe("{\n  read: boolean;\n  write: boolean;\n}");
  });

  it("prints the names of a partial record (z.partialRecord) as optional", () => {
    const schema = {
      type: "object",
      propertyNames: { type: "string", enum: ["read", "x-write"] },
      additionalProperties: { type: "integer" },
    };
    expect(objectType(schema, names, "")).toBe('{\n  read?: number;\n  "x-write"?: number;\n}');
  });

  it("prints a record over one literal name as that name", () => {
    const schema = {
      type: "object",
      propertyNames: { type: "string", const: "only" },
      additionalProperties: { type: "string" },
      required: ["only"],
    };
    expect(objectType(schema, names, "")).toBe("{\n  only: string;\n}");
  });

  it("prints a record over any string, or over a pattern, as an index signature", () => {
    const any = {
      type: "object",
      propertyNames: { type: "string" },
      additionalProperties: { type: "integer" },
    };
    const pattern = {
      type: "object",
      propertyNames: { type: "string", pattern: "^x-" },
      additionalProperties: { type: "integer" },
    };
    expect([objectType(any, names, ""), objectType(pattern, names, "")]).toEqual([
      "{\n  [key: string]: number;\n}",
      "{\n  [key: string]: number;\n}",
    ]);
  });

  it("keeps declared properties beside extra ones under an index signature of unknown", () => {
    const schema = {
      type: "object",
      properties: { id: { type: "integer" } },
      required: ["id"],
      additionalProperties: { type: "string" },
    };
    expect(objectType(schema, names, "")).toBe("{\n  id: number;\n  [key: string]: unknown;\n}");
  });
});
