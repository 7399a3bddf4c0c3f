// `returns` as a list of response classes and ResponseSpecs: an endpoint whose success is a plain
// HttpResponse documents its 404 and 500 models too (docs/responses.md, "A class and models").
import { createApp, ValueError } from "unruffled";
import { HttpResponse, JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const NotFound = z.object({ detail: z.string() }).meta({ id: "NotFound" });
const Failure = z.object({ detail: z.string(), retry: z.boolean() }).meta({ id: "Failure" });

const avatar = endpoint({
  params: { id: p.Path(z.int()) },
  returns: [
    HttpResponse,
    p.ResponseSpec({ model: NotFound, code: "404" }),
    p.ResponseSpec({ model: Failure, code: "500" }),
  ],
  handler: (_request, { id }) =>
    id === 1
      ? new HttpResponse(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), {
          headers: { "content-type": "image/png" },
        })
      : new JsonResponse({ detail: `no avatar ${id}`, secret: "x" }, { status: 404 }),
});
const app = createApp({ routes: [path("/avatars/{id}", { endpoint: avatar, name: "avatar" })] });

describe("a response class beside ResponseSpecs", () => {
  it("documents 200 by the class and each other status by its model", () => {
    expect(app.openapi().paths["/avatars/{id}"]!.get!.responses).toEqual({
      "200": { description: "Successful Response" },
      "404": {
        description: "Not Found",
        content: { "application/json": { schema: { $ref: "#/components/schemas/NotFound" } } },
      },
      "422": expect.objectContaining({ description: "Validation Error" }),
      "500": {
        description: "Internal Server Error",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Failure" } } },
      },
    });
  });

  it("sends the class's answer as written and an error through its model", async () => {
    const client = testClient(app);
    const image = await client.get("/avatars/1");
    expect([image.status, image.headers.get("content-type"), [...image.body]]).toEqual([
      200,
      "image/png",
      [0x89, 0x50, 0x4e, 0x47],
    ]);
    const missing = await client.get("/avatars/2");
    expect([missing.status, missing.text]).toEqual([404, '{"detail":"no avatar 2"}']);
  });

  it("documents several classes' media types under 200", () => {
    const page = endpoint({
      returns: [PlainTextResponse, JsonResponse, p.ResponseSpec({ model: NotFound, code: "404" })],
      handler: () => new PlainTextResponse("hi"),
    });
    const document = createApp({ routes: [path("/page", { endpoint: page })] }).openapi();
    expect(document.paths["/page"]!.get!.responses["200"]).toEqual({
      description: "Successful Response",
      content: { "text/plain": { schema: { type: "string" } }, "application/json": { schema: {} } },
    });
  });

  it("refuses a class and a ResponseSpec that both document 200", () => {
    const twice = endpoint({
      returns: [HttpResponse, p.ResponseSpec({ model: NotFound })],
      handler: () => new HttpResponse(null),
    });
    const build = () => createApp({ routes: [path("/twice", { endpoint: twice, name: "twice" })] });
    expect(build).toThrow(ValueError);
    expect(build).toThrow(
      'endpoint "twice" (GET /twice): a response class in returns documents the status 200, and a ResponseSpec documents 200 too; give the class or the ResponseSpec.',
    );
  });

  it("refuses an entry that is neither a class of response nor a ResponseSpec", () => {
    const odd = endpoint({ returns: [Date as never], handler: () => new HttpResponse(null) as never });
    expect(() => createApp({ routes: [path("/odd", { endpoint: odd, name: "odd" })] })).toThrow(
      'endpoint "odd" (GET /odd): returns must be a response class (JsonResponse, PlainTextResponse) or a non-empty list of p.ResponseSpec(...) and response classes.',
    );
  });
});

describe("audit: a response class beside a success ResponseSpec", () => {
  const Row = z.object({ id: z.int() }).meta({ id: "Row" });
  const rows = endpoint({
    params: { status: p.Query(z.coerce.number().int().optional()) },
    returns: [JsonResponse, p.ResponseSpec({ model: Row, code: "201" })],
    handler: (_request, { status }) =>
      status === undefined
        ? new JsonResponse({ id: 1, note: "as written" })
        : JsonResponse.unchecked({ id: 1, note: "as written" }, { status }),
  });
  const app = createApp({ routes: [path("/rows", { endpoint: rows, name: "rows" })] });

  it("keeps the default status 200, and sends a success body whose status has no model as written", async () => {
    const client = testClient(app);
    const answers = [];
    for (const target of ["/rows", "/rows?status=200", "/rows?status=202", "/rows?status=201"]) {
      const response = await client.get(target);
      answers.push([target, response.status, response.text]);
    }
    expect(answers).toEqual([
      ["/rows", 200, '{"id":1,"note":"as written"}'],
      ["/rows?status=200", 200, '{"id":1,"note":"as written"}'],
      ["/rows?status=202", 202, '{"id":1,"note":"as written"}'],
      ["/rows?status=201", 201, '{"id":1}'],
    ]);
  });
});
