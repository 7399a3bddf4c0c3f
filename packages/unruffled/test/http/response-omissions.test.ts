// exclude_none and exclude_defaults on a ResponseSpec (FastAPI's response_model_exclude_none and
// response_model_exclude_defaults; docs/responses.md, "Leaving out nulls and defaults").
import { createApp, ValueError } from "unruffled";
import { EventStreamResponse, JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { serve } from "../support/serve.ts";

// FastAPI's ModelDefaults: two nullable fields defaulting to null, two strings with defaults.
const WithDefaults = z.object({
  w: z.string().nullable().default(null),
  x: z.string().nullable().default(null),
  y: z.string().default("y"),
  z: z.string().default("z"),
});
const Sub = z.object({ a: z.string().nullable().default("foo"), tags: z.array(z.string()).default([]) });
const Nested = z.object({ x: z.int().nullish(), sub: Sub, subs: z.array(Sub) });

async function bodies(
  spec: { exclude_none?: boolean; exclude_defaults?: boolean },
  model: z.ZodType,
  body: unknown,
): Promise<string[]> {
  const texts: string[] = [];
  for (const validate of ["strict", "off"] as const) {
    const probe = endpoint({
      returns: [p.ResponseSpec({ model, ...spec })],
      handler: () => JsonResponse.unchecked(body),
    });
    const server = await serve([path("/probe", { endpoint: probe })], {
      settings: { RESPONSES: { validate } },
    });
    const response = await server.fetch("/probe");
    texts.push(`${response.status} ${await response.text()}`);
  }
  return texts;
}

describe("leaving out nulls and defaults", () => {
  it("exclude_defaults leaves out the fields equal to their default, null included", async () => {
    expect(await bodies({ exclude_defaults: true }, WithDefaults, { x: null, y: "y" })).toEqual([
      "200 {}",
      "200 {}",
    ]);
  });

  it("exclude_none leaves out the null fields and keeps the defaults", async () => {
    expect(await bodies({ exclude_none: true }, WithDefaults, { x: null, y: "y" })).toEqual([
      '200 {"y":"y","z":"z"}',
      '200 {"y":"y","z":"z"}',
    ]);
  });

  it("both together leave out both", async () => {
    expect(
      await bodies({ exclude_none: true, exclude_defaults: true }, WithDefaults, { w: "w", x: null, z: "Z" }),
    ).toEqual(['200 {"w":"w","z":"Z"}', '200 {"w":"w","z":"Z"}']);
  });

  it("applies at every depth: nested objects and objects in lists; a default list compares by value", async () => {
    const body = {
      x: null,
      sub: { a: "foo", tags: [] },
      subs: [{ a: null, tags: ["t"] }, { tags: [] }],
      secret: "s",
    };
    expect(await bodies({ exclude_defaults: true }, Nested, body)).toEqual([
      '200 {"x":null,"sub":{},"subs":[{"a":null,"tags":["t"]},{}]}',
      '200 {"x":null,"sub":{},"subs":[{"a":null,"tags":["t"]},{}]}',
    ]);
    expect(await bodies({ exclude_none: true }, Nested, body)).toEqual([
      '200 {"sub":{"a":"foo","tags":[]},"subs":[{"tags":["t"]},{"a":"foo","tags":[]}]}',
      '200 {"sub":{"a":"foo","tags":[]},"subs":[{"tags":["t"]},{"a":"foo","tags":[]}]}',
    ]);
  });

  it("keeps nulls in lists and leaves the extra keys of a loose object out when null", async () => {
    const Loose = z.looseObject({ items: z.array(z.int().nullable()) });
    expect(await bodies({ exclude_none: true }, Loose, { items: [1, null], extra: null, kept: 2 })).toEqual([
      '200 {"items":[1,null],"kept":2}',
      '200 {"items":[1,null],"kept":2}',
    ]);
  });

  it("applies to an event's data", async () => {
    const follow = endpoint({
      returns: [
        p.ResponseSpec({ model: WithDefaults, content_type: "text/event-stream", exclude_none: true }),
      ],
      handler: () => new EventStreamResponse([{ data: { x: null, y: "Y" } }]),
    });
    const server = await serve([path("/follow", { endpoint: follow })]);
    expect(await (await server.fetch("/follow")).text()).toBe(': connected\n\ndata: {"y":"Y","z":"z"}\n\n');
  });

  it("a required field that may be null cannot be left out: a ValueError when the app is built", () => {
    const Row = z.object({ id: z.int(), items: z.array(z.object({ email: z.string().nullable() })) });
    const rows = endpoint({
      returns: [
        p.ResponseSpec({ model: z.object({ detail: z.string() }), code: "404" }),
        p.ResponseSpec({ model: Row, code: "201", exclude_none: true }),
      ],
      handler: () => new JsonResponse({ id: 1, items: [] }, { status: 201 }),
    });
    const build = () => createApp({ routes: [path("/rows", { endpoint: rows, name: "rows" })] });
    expect(build).toThrow(ValueError);
    expect(build).toThrow(
      'endpoint "rows" (GET /rows): the ResponseSpec of status 201 leaves out null fields (exclude_none), but the field items[].email is required and may be null: an answer without it would not fit the model. Make it optional (.nullish()) or drop exclude_none.',
    );
  });
});

describe("audit: leaving out nulls where the page says it does not", () => {
  it("keeps the values of a record, leaves out the null fields of objects in it, and keeps nulls in a part Zod parses", async () => {
    const Model = z.object({
      scores: z.record(z.string(), z.int().nullable()),
      people: z.record(z.string(), z.object({ name: z.string(), nick: z.string().nullish() })),
      parsed: z.object({ label: z.string().nullish() }).overwrite((value) => value),
      gone: z.string().nullish(),
    });
    const body = {
      scores: { ann: null, bob: 3 },
      people: { a: { name: "Ann", nick: null, pin: 1 } },
      parsed: { label: null },
      gone: null,
    };
    expect(await bodies({ exclude_none: true }, Model, body)).toEqual([
      '200 {"scores":{"ann":null,"bob":3},"people":{"a":{"name":"Ann"}},"parsed":{"label":null}}',
      '200 {"scores":{"ann":null,"bob":3},"people":{"a":{"name":"Ann"}},"parsed":{"label":null}}',
    ]);
  });
});
