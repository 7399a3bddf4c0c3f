import {
  createApp,
  exceptionHandler,
  PayloadTooLargeError,
  RequestValidationError,
  UnsupportedMediaTypeError,
} from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";

class Conflict extends Error {}

const Envelope = z.object({ code: z.int(), message: z.string() }).meta({ id: "Envelope" });
const Listed = z.object({ items: z.array(z.string()) }).meta({ id: "Listed" });

const list = endpoint({
  params: { page: p.Query(z.int(), { default: 1 }) },
  returns: [p.ResponseSpec({ model: Listed })],
  handler: () => new JsonResponse({ items: [] }),
});
const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hi") });

describe("the responses of the app's exception handlers", () => {
  const app = createApp({
    routes: [
      path("/list", { endpoint: list, name: "list" }),
      path("/hello", { endpoint: hello, name: "hello" }),
    ],
    exceptionHandlers: [
      exceptionHandler(RequestValidationError, () => new JsonResponse({ code: 422, message: "invalid" }), {
        responses: [p.ResponseSpec({ code: "200", model: Envelope, description: "A failure" })],
      }),
      exceptionHandler(Conflict, () => new JsonResponse({ code: 409, message: "conflict" }), {
        responses: [
          p.ResponseSpec({ code: "200", model: Envelope, description: "A failure" }),
          p.ResponseSpec({ code: "409", model: Envelope, description: "Conflict" }),
        ],
      }),
    ],
  });
  const document = app.openapi();

  it("documents every handler's responses on every operation, each body once under anyOf", () => {
    expect(document.paths["/list"]!.get!.responses).toEqual({
      "200": {
        description: "Successful Response",
        content: {
          "application/json": {
            schema: {
              anyOf: [{ $ref: "#/components/schemas/Listed" }, { $ref: "#/components/schemas/Envelope" }],
            },
          },
        },
      },
      "409": {
        description: "Conflict",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Envelope" } } },
      },
    });
  });

  it("leaves the validation handler's responses out of an endpoint that reads no parameter", () => {
    expect(document.paths["/hello"]!.get!.responses).toEqual({
      "200": {
        description: "Successful Response",
        content: {
          "text/plain": { schema: { type: "string" } },
          "application/json": { schema: { $ref: "#/components/schemas/Envelope" } },
        },
      },
      "409": {
        description: "Conflict",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Envelope" } } },
      },
    });
  });
});

describe("the answers to a refused body", () => {
  const create = endpoint({
    params: { body: p.Json(z.object({ name: z.string() })) },
    returns: [p.ResponseSpec({ code: "201", model: z.object({ id: z.int() }) })],
    handler: () => new JsonResponse({ id: 1 }, { status: 201 }),
  });
  const routes = [
    path("/things", { endpoint: create, methods: ["POST"], name: "create" }),
    path("/hello", { endpoint: hello }),
  ];
  const httpError = { "application/json": { schema: { $ref: "#/components/schemas/HTTPError" } } };

  it("lists 413 and 415 on an operation that reads a body, with the default handler's body", () => {
    const responses = createApp({ routes }).openapi().paths["/things"]!.post!.responses;
    expect(Object.keys(responses)).toEqual(["201", "413", "415", "422"]);
    expect(responses["413"]).toEqual({ description: "Content Too Large", content: httpError });
    expect(responses["415"]).toEqual({ description: "Unsupported Media Type", content: httpError });
    expect(Object.keys(createApp({ routes }).openapi().paths["/hello"]!.get!.responses)).toEqual(["200"]);
  });

  it("lists what the app's own handler of PayloadTooLargeError documents instead", () => {
    const app = createApp({
      routes,
      exceptionHandlers: [
        exceptionHandler(
          PayloadTooLargeError,
          (error) => new JsonResponse({ code: 413, message: error.message }, { status: 413 }),
          { responses: [p.ResponseSpec({ code: "413", model: Envelope, description: "Too large" })] },
        ),
      ],
    });
    const responses = app.openapi().paths["/things"]!.post!.responses;
    expect(responses["413"]).toEqual({
      description: "Too large",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Envelope" } } },
    });
    expect(responses["415"]).toEqual({ description: "Unsupported Media Type", content: httpError });
  });

  it("leaves out a refusal whose handler documents nothing", () => {
    const app = createApp({
      routes,
      exceptionHandlers: [
        exceptionHandler(UnsupportedMediaTypeError, () => new JsonResponse({ code: 415 }, { status: 415 })),
      ],
    });
    expect(Object.keys(app.openapi().paths["/things"]!.post!.responses)).toEqual(["201", "413", "422"]);
  });
});

describe("audit: docs/errors.md, a body read by a dependency", () => {
  it("lists 413, 415 and 422 on an operation whose dependency, or whose group's dependency, reads the body", () => {
    const body = dependency({
      params: { note: p.Json(z.object({ text: z.string() })) },
      resolve: (_request, { note }) => note,
    });
    const plain = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({}) });
    const viaEndpoint = endpoint({
      params: { note: p.Depends(body) },
      returns: JsonResponse,
      handler: () => new JsonResponse({}),
    });
    const paths = createApp({
      routes: [
        path("/group", {
          dependencies: [body],
          routes: [path("/notes", { endpoint: plain, methods: ["POST"] })],
        }),
        path("/notes", { endpoint: viaEndpoint, methods: ["POST"] }),
      ],
    }).openapi().paths;
    for (const at of ["/group/notes", "/notes"]) {
      expect([at, Object.keys(paths[at]!.post!.responses)]).toEqual([at, ["200", "413", "415", "422"]]);
    }
  });
});
