// RedirectResponse (docs/responses.md, "Redirects"): Starlette's RedirectResponse, its Location
// encoded as Starlette quotes it, its status a 3xx, documented as a redirect without a body.
import { createApp } from "unruffled";
import { bindOperations } from "unruffled/client";
import { HttpResponse, RedirectResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { startServer, testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { clientModel } from "../../src/client-generator/client-model.ts";
import { serve } from "../support/serve.ts";

const to = (url: string, status?: number) =>
  endpoint({
    returns: RedirectResponse,
    handler: () => new RedirectResponse(url, status === undefined ? {} : { status }),
  });

describe("RedirectResponse", () => {
  it("answers 307 with the Location and an empty body of Content-Length 0", async () => {
    const server = await serve([path("/old", { endpoint: to("/new") })]);
    const response = await server.fetch("/old", { redirect: "manual" });
    expect([
      response.status,
      response.headers.get("location"),
      response.headers.get("content-length"),
      response.headers.get("content-type"),
      await response.text(),
    ]).toEqual([307, "/new", "0", null, ""]);
  });

  it("takes another 3xx status and the headers it is given", () => {
    const response = new RedirectResponse("https://example.com/", {
      status: 301,
      headers: { "Cache-Control": "no-store" },
    });
    expect([response.status, response.headers]).toEqual([
      301,
      { "cache-control": "no-store", location: "https://example.com/" },
    ]);
  });

  it("refuses a status that is not a 3xx", () => {
    expect(() => new RedirectResponse("/new", { status: 200 })).toThrow(
      new RangeError("A redirect's status must be an integer from 300 to 399, got 200"),
    );
    expect(() => new RedirectResponse("/new", { status: 400 })).toThrow(
      new RangeError("A redirect's status must be an integer from 300 to 399, got 400"),
    );
  });

  it("percent-encodes a space and a non-ASCII character in the Location, as UTF-8", () => {
    expect(new RedirectResponse("/I ♥ Unruffled/?q=a b").headers.location).toBe(
      "/I%20%E2%99%A5%20Unruffled/?q=a%20b",
    );
  });

  it("leaves an encoded Location as it is", () => {
    const url = "https://example.com/I%20%E2%99%A5/?next=%2Fa%3Fb%3D1&x=y#top";
    expect(new RedirectResponse(url).headers.location).toBe(url);
  });

  it("refuses a Location with a line break as any header value is", () => {
    expect(() => new RedirectResponse("/new\r\nSet-Cookie: a=1")).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_CHAR" }),
    );
  });

  it("is followed by fetch to the Location", async () => {
    const target = endpoint({ returns: HttpResponse, handler: () => new HttpResponse("here") });
    const server = await serve([path("/from", { endpoint: to("/to") }), path("/to", { endpoint: target })]);
    const response = await server.fetch("/from");
    expect([response.status, response.redirected, await response.text()]).toEqual([200, true, "here"]);
  });
});

describe("a redirect in the document and the clients", () => {
  const NotFound = z.object({ detail: z.string() }).meta({ id: "NotFound" });
  const go = to("/elsewhere");
  const app = createApp({
    routes: [
      path("/go", { endpoint: go, name: "go" }),
      path("/go-or-404", {
        name: "go_or_404",
        endpoint: endpoint({
          returns: [RedirectResponse, p.ResponseSpec({ model: NotFound, code: "404" })],
          handler: () => new RedirectResponse("/elsewhere", { status: 303 }),
        }),
      }),
    ],
  });

  it("documents returns: RedirectResponse as a 307 with its Location header and no content", () => {
    expect(app.openapi().paths["/go"]!.get!.responses).toEqual({
      "307": {
        description: "Temporary Redirect",
        headers: { Location: { schema: { type: "string", format: "uri-reference" } } },
      },
    });
    expect(Object.keys(app.openapi().paths["/go-or-404"]!.get!.responses)).toEqual(["307", "404"]);
  });

  it("is read by the test client's call() without parsing a body", async () => {
    const response = await testClient(app).call(go);
    expect([response.status, response.headers.get("location"), response.text]).toEqual([
      307,
      "/elsewhere",
      "",
    ]);
  });

  it("is a documented answer without a body to the generated client, when its fetch does not follow it", async () => {
    const server = await startServer(app);
    try {
      const plan = clientModel(app).operations.find((operation) => operation.member === "go")!.plan;
      const client = bindOperations<{ go: () => Promise<unknown> }>(
        { go: plan },
        { baseUrl: server.url, fetch: (url, init) => fetch(url, { ...init, redirect: "manual" }) },
      );
      expect(await client.go()).toMatchObject({ kind: "documented", status: 307, body: undefined });
    } finally {
      await server.close();
    }
  });
});
