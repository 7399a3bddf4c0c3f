import { createApp, exceptionHandler, RequestValidationError } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
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
