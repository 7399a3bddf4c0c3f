// openapiExtra: an object deep-merged into a route's operation (FastAPI's openapi_extra), for what the
// declarations cannot say: an `x-` extension, a request body the handler reads itself.
import { createApp, ValueError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { callback, endpoint, type OpenApiExtra, p, path, webhook } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { generateClient } from "../../src/client-generator/index.ts";
import { MAGIC_BODY, magicDataReader } from "./fixture-extras-app.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const Item = z.object({ name: z.string(), price: z.number() }).meta({ id: "Item" });
const readItem = endpoint({
  params: { item_id: z.int(), q: p.Query(z.string().optional()) },
  tags: ["items"],
  returns: [p.ResponseSpec({ model: Item })],
  handler: () => new JsonResponse({ name: "Foo", price: 1 }),
});
const readItemSent = endpoint({
  params: { item: p.Json(Item) },
  returns: JsonResponse,
  handler: () => new JsonResponse({}),
});
const documented = (extra: unknown, methods = ["GET"]) =>
  createApp({
    routes: [
      path("/items/{item_id}", {
        endpoint: readItem,
        methods,
        name: "read_item",
        openapiExtra: extra as any,
      }),
    ],
  }).openapi().paths["/items/{item_id}"] as any;
const plain = documented(undefined).get;

describe("openapiExtra in the document", () => {
  it("adds an x- extension to the operation, leaving the rest as generated", () => {
    expect(documented({ "x-aperture-labs-portal": "blue" }).get).toEqual({
      ...plain,
      "x-aperture-labs-portal": "blue",
    });
  });

  it("describes by hand the request body of an endpoint that reads request.body() itself, which is served as before", async () => {
    const app = createApp({
      routes: [
        path("/items", {
          endpoint: magicDataReader,
          methods: ["POST"],
          name: "magic",
          openapiExtra: MAGIC_BODY,
        }),
      ],
    });
    const operation = (app.openapi().paths["/items"] as any).post;
    expect(operation.requestBody).toEqual(MAGIC_BODY.requestBody);
    const answer = await testClient(app).post("/items", {
      body: '{"name": "Foo", "price": 42}',
      headers: { "content-type": "application/json" },
    });
    expect([answer.status, answer.json()]).toEqual([200, { name: "Foo", price: 42, magic: true }]);
  });

  it("merges objects key by key, appends to lists, and replaces any other value (the extra's wins)", () => {
    const operation = documented({
      summary: "Read an item",
      tags: ["catalogue"],
      parameters: [{ name: "x-trace", in: "header", required: false, schema: { type: "string" } }],
      responses: {
        "200": { description: "The item", headers: { "x-cache": { schema: { type: "string" } } } },
        "404": { description: "No such item" },
      },
    }).get;
    expect(operation.summary).toBe("Read an item");
    expect(operation.tags).toEqual(["items", "catalogue"]);
    expect(operation.parameters).toEqual([
      ...plain.parameters,
      { name: "x-trace", in: "header", required: false, schema: { type: "string" } },
    ]);
    expect(operation.responses).toEqual({
      "200": {
        description: "The item",
        headers: { "x-cache": { schema: { type: "string" } } },
        content: { "application/json": { schema: ref("Item") } },
      },
      "404": { description: "No such item" },
      "422": plain.responses["422"],
    });
  });

  it("is merged into every documented operation of the route, each its own copy", () => {
    const item = documented({ "x-owner": { team: "catalogue" } }, ["GET", "PUT"]);
    expect([item.get["x-owner"], item.put["x-owner"]]).toEqual([
      { team: "catalogue" },
      { team: "catalogue" },
    ]);
    expect(item.get["x-owner"]).not.toBe(item.put["x-owner"]);
  });

  it("changes only its own route's operation", () => {
    const paths = createApp({
      routes: [
        path("/items/{item_id}", {
          endpoint: readItem,
          name: "read_item",
          openapiExtra: { responses: { "422": { description: "Refused" } } },
        }),
        path("/other/{item_id}", { endpoint: readItem, name: "read_other" }),
      ],
    }).openapi().paths as any;
    expect(paths["/items/{item_id}"].get.responses["422"].description).toBe("Refused");
    expect(paths["/other/{item_id}"].get.responses["422"]).toEqual(plain.responses["422"]);
  });

  it("refuses, when the document is generated, a value of another kind than the operation's own or than OpenAPI's for the field, naming it", () => {
    for (const [extra, where, kind, own] of [
      [{ responses: "none" }, "openapiExtra.responses", "a string", "an object"],
      [{ parameters: { name: "x" } }, "openapiExtra.parameters", "an object", "a list"],
      [
        { responses: { "200": { content: [] } } },
        'openapiExtra.responses["200"].content',
        "a list",
        "an object",
      ],
      [{ summary: { text: "x" } }, "openapiExtra.summary", "an object", "a string"],
      [{ tags: "catalogue" }, "openapiExtra.tags", "a string", "a list"],
      [{ deprecated: "yes" }, "openapiExtra.deprecated", "a string", "a boolean"],
    ] as const) {
      expect(() => documented(extra)).toThrow(
        new ValueError(
          `endpoint "read_item" (GET /items/{item_id}): ${where} is ${kind}, where OpenAPI wants ${own}; give ${own}, which is merged into the operation's.`,
        ),
      );
    }
  });
});

describe("openapiExtra on a webhook and a callback", () => {
  it("is merged into their operations as into a route's", () => {
    const app = createApp({
      routes: [
        path("/items", {
          endpoint: magicDataReader,
          methods: ["POST"],
          callbacks: [
            callback("stored", {
              url: "{$request.body#/notify}",
              method: "POST",
              endpoint: readItemSent,
              openapiExtra: { "x-retries": 3 },
            }),
          ],
        }),
      ],
      webhooks: [
        webhook("stored", { method: "POST", endpoint: readItemSent, openapiExtra: { "x-retries": 5 } }),
      ],
    });
    const document = app.openapi() as any;
    expect(document.webhooks.stored.post["x-retries"]).toBe(5);
    expect(document.paths["/items"].post.callbacks.stored["{$request.body#/notify}"].post["x-retries"]).toBe(
      3,
    );
  });

  it("is refused as a route's when malformed, naming the webhook or the callback", () => {
    expect(() =>
      webhook("stored", { method: "POST", endpoint: readItemSent, openapiExtra: [] as any }),
    ).toThrow(
      new ValueError(
        'webhook("stored"): openapiExtra must be a plain object, merged into the operation, such as { "x-internal": true }.',
      ),
    );
    expect(() =>
      callback("stored", {
        url: "{$url}",
        method: "POST",
        endpoint: readItemSent,
        openapiExtra: { "x-at": new Date(0) } as any,
      }),
    ).toThrow(
      new ValueError(
        'callback("stored"): openapiExtra["x-at"] is a Date, which the JSON document cannot hold; give a string, a number, a boolean, null, a list or a plain object.',
      ),
    );
  });
});

describe("openapiExtra and the generated TypeScript client", () => {
  it("changes the document, not the client, which types what the endpoint declares", () => {
    const client = (openapiExtra: OpenApiExtra | undefined) =>
      generateClient(
        createApp({
          routes: [
            path("/items", { endpoint: magicDataReader, methods: ["POST"], name: "magic", openapiExtra }),
          ],
        }),
      );
    expect(client(MAGIC_BODY)).toBe(client(undefined));
  });
});

describe("a malformed openapiExtra is refused where path() is called", () => {
  const declare = (extra: unknown) => () =>
    path("/items/{item_id}", { endpoint: readItem, openapiExtra: extra as any });

  it.each([
    ["a list", [{ "x-a": 1 }]],
    ["a string", "x-a"],
    ["null", null],
    ["a Map", new Map()],
  ])("refuses %s, which is no object to merge", (_what, extra) => {
    expect(declare(extra)).toThrow(
      new ValueError(
        'path("/items/{item_id}"): openapiExtra must be a plain object, merged into the operation, such as { "x-internal": true }.',
      ),
    );
  });

  it.each([
    ["a function", { "x-hook": () => 1 }, 'openapiExtra["x-hook"]'],
    ["undefined", { summary: undefined }, "openapiExtra.summary"],
    ["a Date", { "x-since": [new Date(0)] }, 'openapiExtra["x-since"][0]'],
    ["the number NaN", { "x-rank": Number.NaN }, 'openapiExtra["x-rank"]'],
    ["a bigint", { "x-size": { bytes: 10n } }, 'openapiExtra["x-size"].bytes'],
  ])("refuses %s, which the JSON document cannot hold, naming where", (what, extra, where) => {
    expect(declare(extra)).toThrow(
      new ValueError(
        `path("/items/{item_id}"): ${where} is ${what}, which the JSON document cannot hold; give a string, a number, a boolean, null, a list or a plain object.`,
      ),
    );
  });

  it("refuses an object that holds itself, which JSON cannot write, naming where, rather than overflowing the stack", () => {
    const cyclic: Record<string, unknown> = { "x-node": { name: "a" } };
    (cyclic["x-node"] as Record<string, unknown>).parent = cyclic;
    expect(declare(cyclic)).toThrow(
      new ValueError(
        'path("/items/{item_id}"): openapiExtra["x-node"].parent is the object that holds it, which the JSON document cannot hold; give a string, a number, a boolean, null, a list or a plain object.',
      ),
    );
  });

  it("refuses an operationId, which the route's name gives and the document keeps unique", () => {
    expect(declare({ operationId: "read" })).toThrow(
      new ValueError(
        'path("/items/{item_id}"): openapiExtra sets operationId, which the route gives (its name or operationId option), unique in the document; give it there.',
      ),
    );
  });

  it("refuses openapiExtra on a group", () => {
    expect(() => path("/items", { routes: [], openapiExtra: {} } as any)).toThrow(
      new ValueError('path("/items"): openapiExtra belongs to a route with an endpoint: its operation.'),
    );
  });
});
