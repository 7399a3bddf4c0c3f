// What JSON cannot carry in a JSON body or a JSON answer: refused when the route is built, naming
// the field and what to declare instead, rather than a 422 for every request, a 500 for every
// answer, or a Set written as {}.
import { createApp, ValueError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { websocket } from "unruffled/websocket";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { notCarriedByJson } from "../../../src/route/analyse/json-carriage.ts";
import { JSON_HEADERS, jsonOf, serveEndpoint } from "../../support/serve.ts";

function buildError(declare: () => ReturnType<typeof endpoint>): unknown {
  try {
    createApp({ routes: [path("/probe", { endpoint: declare(), methods: ["POST"], name: "probe" })] });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("notCarriedByJson", () => {
  it("finds a BigInt, a Set, a Map, a symbol, a function or a promise, and where it is", () => {
    const model = z.object({
      items: z.array(z.object({ tags: z.set(z.string()) })),
      counts: z.record(z.string(), z.bigint()),
    });
    expect(notCarriedByJson(model, "answer")).toEqual({
      path: "items[].tags",
      type: "set",
      instead: "z.array() (a Set is written as {})",
    });
    expect(
      ["map", "symbol", "function", "promise"].map(
        (type) =>
          notCarriedByJson(
            z.object({
              v: {
                map: z.map(z.string(), z.int()),
                symbol: z.symbol(),
                function: z.function(),
                promise: z.promise(z.int()),
              }[type]!,
            } as never),
            "request",
          )?.type,
      ),
    ).toEqual(["map", "symbol", "function", "promise"]);
    expect(notCarriedByJson(z.object({ n: z.record(z.string(), z.bigint()) }), "request")?.path).toBe(
      "n[key]",
    );
  });

  it("lets a request's coerced BigInt through (JSON's number or string), not an answer's", () => {
    const model = z.object({ n: z.coerce.bigint() });
    expect([notCarriedByJson(model, "request"), notCarriedByJson(model, "answer")?.type]).toEqual([
      undefined,
      "bigint",
    ]);
  });

  it("follows an answer's pipe to what it writes, and a request's to what it reads", () => {
    const model = z.object({ n: z.bigint().transform(String) });
    expect([notCarriedByJson(model, "answer"), notCarriedByJson(model, "request")?.path]).toEqual([
      undefined,
      "n",
    ]);
  });

  it("refuses a union only when none of its options can travel", () => {
    expect(notCarriedByJson(z.union([z.int(), z.bigint()]), "request")).toBeUndefined();
    expect(notCarriedByJson(z.union([z.bigint(), z.set(z.int())]), "request")?.type).toBe("bigint");
  });

  it("finds one in a recursive model, and ends on a model that refers to itself", () => {
    interface Node {
      children: Node[];
      weight?: bigint;
    }
    const Node: z.ZodType<Node> = z.object({
      get children() {
        return z.array(Node);
      },
      weight: z.bigint().optional(),
    });
    const Plain: z.ZodType<{ next?: unknown }> = z.object({
      get next() {
        return Plain.optional();
      },
    });
    expect([notCarriedByJson(Node, "answer")?.path, notCarriedByJson(Plain, "answer")]).toEqual([
      "weight",
      undefined,
    ]);
  });

  it("lets dates, strings and the rest of JSON's values through", () => {
    const model = z.object({
      at: z.date(),
      name: z.string(),
      n: z.int().nullable(),
      tags: z.tuple([z.string()]),
    });
    expect([notCarriedByJson(model, "request"), notCarriedByJson(model, "answer")]).toEqual([
      undefined,
      undefined,
    ]);
  });
});

describe("a route whose JSON cannot carry its model", () => {
  it("is refused when built: an answer's BigInt, naming the status and the field", () => {
    const error = buildError(() =>
      endpoint({
        returns: [p.ResponseSpec({ model: z.object({ id: z.bigint() }) })],
        handler: () => JsonResponse.unchecked({ id: 1n }),
      }),
    );
    expect(error).toEqual(
      new ValueError(
        'endpoint "probe" (POST /probe): the model of its 200 answer cannot be written as JSON: the field "id" is a bigint; declare z.int(), or z.string() for an integer beyond 2^53 (JSON.stringify refuses a BigInt).',
      ),
    );
  });

  it("is refused when built: a JSON body's Set, naming the parameter and the field", () => {
    const error = buildError(() =>
      endpoint({
        params: { body: p.Json(z.object({ tags: z.set(z.string()) })) },
        returns: JsonResponse,
        handler: () => new JsonResponse(null),
      }),
    );
    expect(error).toEqual(
      new ValueError(
        'endpoint "probe" (POST /probe), parameter "body" cannot be read from a JSON body: its field "tags" is a set, which JSON has no value for (every request would get a 422); declare z.array().',
      ),
    );
  });

  it("says what to declare instead of a function, a symbol or a promise, in a sentence that reads", () => {
    const answering = (model: z.ZodType) =>
      buildError(() =>
        endpoint({ returns: [p.ResponseSpec({ model })], handler: () => JsonResponse.unchecked({}) }),
      );
    const reading = (model: z.ZodObject) =>
      buildError(() =>
        endpoint({
          params: { body: p.Json(model) },
          returns: JsonResponse,
          handler: () => new JsonResponse(null),
        }),
      );
    const answer = 'endpoint "probe" (POST /probe): the model of its 200 answer cannot be written as JSON: ';
    const request =
      'endpoint "probe" (POST /probe), parameter "body" cannot be read from a JSON body: its field "x" is a ';
    expect(
      [
        answering(z.object({ x: z.function() })),
        answering(z.object({ x: z.symbol() })),
        answering(z.object({ x: z.promise(z.int()) })),
        reading(z.object({ x: z.function() })),
        reading(z.object({ x: z.promise(z.int()) })),
      ].map((error) => (error as Error).message),
    ).toEqual([
      `${answer}the field "x" is a function; declare the model without it.`,
      `${answer}the field "x" is a symbol; declare the model without it.`,
      `${answer}the field "x" is a promise; declare the promised value's schema, and await it in the handler.`,
      `${request}function, which JSON has no value for (every request would get a 422); declare the model without it.`,
      `${request}promise, which JSON has no value for (every request would get a 422); declare the model without it.`,
    ]);
  });

  it("is refused when built: a WebSocket's messages, which are JSON text too", () => {
    const declare = (inbound: z.ZodType, outbound: z.ZodType) => () => {
      try {
        const socket = websocket({ inbound, outbound, handler: async () => {} });
        createApp({ routes: [path("/live", { websocket: socket, name: "live" })] });
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect([
      declare(z.object({ ids: z.set(z.int()) }), z.object({ ok: z.boolean() }))(),
      declare(z.object({ ok: z.boolean() }), z.object({ total: z.bigint() }))(),
    ]).toEqual([
      new ValueError(
        'websocket "live" (GET /live): the inbound messages cannot be carried as JSON: the field "ids" is a set; declare z.array().',
      ),
      new ValueError(
        'websocket "live" (GET /live): the outbound messages cannot be carried as JSON: the field "total" is a bigint; declare z.int(), or z.string() for an integer beyond 2^53 (JSON.stringify refuses a BigInt).',
      ),
    ]);
  });
});

describe("what JSON can carry is served (docs/declaration-errors.md, a model JSON cannot carry)", () => {
  it("reads a body's z.coerce.bigint() from a JSON number or a string, beyond 2^53 too", async () => {
    const deposit = endpoint({
      params: { body: p.Json(z.object({ cents: z.coerce.bigint() })) },
      returns: [p.ResponseSpec({ model: z.object({ doubled: z.string() }) })],
      handler: (_request, { body }) => new JsonResponse({ doubled: String(body.cents * 2n) }),
    });
    const server = await serveEndpoint("/deposit", deposit, ["POST"]);
    const send = (text: string) =>
      jsonOf(server.fetch("/deposit", { method: "POST", headers: JSON_HEADERS, body: text }));
    expect([await send('{"cents":1250}'), await send('{"cents":"9007199254740993"}')]).toEqual([
      { status: 200, body: { doubled: "2500" } },
      { status: 200, body: { doubled: "18014398509481986" } },
    ]);
  });

  it("builds an answer whose union has one option JSON can carry, and sends that option", async () => {
    const getTotal = endpoint({
      returns: [p.ResponseSpec({ model: z.object({ total: z.union([z.bigint(), z.int()]) }) })],
      handler: () => new JsonResponse({ total: 7 }),
    });
    const server = await serveEndpoint("/total", getTotal);
    expect(await jsonOf(server.fetch("/total"))).toEqual({ status: 200, body: { total: 7 } });
  });
});
