// A route path written with characters a client must percent-encode (docs/endpoints-and-routes.md,
// "What the router answers"): everything that writes the path for a client writes the path the
// router answers, and a request sent to it gets 200.
import { createApp } from "unruffled";
import { bindOperations } from "unruffled/client";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { routesTable } from "../../src/cli/routes-table.ts";
import { generateClient } from "../../src/client-generator/index.ts";
import { generateOpenApi } from "../../src/openapi/index.ts";
import { serve } from "../support/serve.ts";

const dessert = endpoint({
  params: { size: p.Path(z.string()) },
  returns: JsonResponse,
  handler: (request, { size }) => new JsonResponse({ size, link: request.urlFor("dessert", { size }) }),
});
const hello = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ hello: "là-bas" }) });
const routes = [
  path("/menu/crème brûlée/{size}", { endpoint: dessert, name: "dessert" }),
  path("/to here", { endpoint: hello, name: "to_here" }),
];
const app = createApp({ routes });

describe("a route path a client must encode is written as the router answers it", () => {
  it("is the OpenAPI document's path key, percent-encoded, and that path answers", async () => {
    const keys = Object.keys(generateOpenApi(app).paths);
    expect(keys).toEqual(["/menu/cr%C3%A8me%20br%C3%BBl%C3%A9e/{size}", "/to%20here"]);
    const server = await serve(routes);
    const answers = await Promise.all(
      keys.map(async (key) => (await server.fetch(key.replace("{size}", "small"))).status),
    );
    expect(answers).toEqual([200, 200]);
  });

  it("is the path app.urlPathFor and request.urlFor give, and that path answers", async () => {
    expect([app.urlPathFor("to_here"), app.urlPathFor("dessert", { size: "x l" })]).toEqual([
      "/to%20here",
      "/menu/cr%C3%A8me%20br%C3%BBl%C3%A9e/x%20l",
    ]);
    const server = await serve(routes);
    const response = await server.fetch(app.urlPathFor("dessert", { size: "x l" }));
    const body = (await response.json()) as { size: string; link: string };
    expect([response.status, body.size, body.link]).toEqual([
      200,
      "x l",
      `${server.url}/menu/cr%C3%A8me%20br%C3%BBl%C3%A9e/x%20l`,
    ]);
    expect((await server.fetch(new URL(body.link).pathname)).status).toBe(200);
  });

  it("is the path the test client's call() sends, in process and over a socket", async () => {
    const server = await serve(routes);
    const inProcess = await testClient(app).call(dessert, { size: "x l" });
    const overSocket = await testClient(app, { baseUrl: server.url }).call(hello, {});
    expect([inProcess.status, inProcess.json(), overSocket.status, overSocket.json()]).toEqual([
      200,
      { size: "x l", link: "http://localhost/menu/cr%C3%A8me%20br%C3%BBl%C3%A9e/x%20l" },
      200,
      { hello: "là-bas" },
    ]);
  });

  it("is the path the generated client sends", async () => {
    const plans = JSON.parse(/JSON\.parse\(`([\s\S]*?)`\)/.exec(generateClient(app))![1]!);
    const server = await serve(routes);
    const client = bindOperations<{
      dessert(params: { size: string }): Promise<unknown>;
      to_here(): Promise<unknown>;
    }>(plans, { baseUrl: server.url });
    expect([await client.dessert({ size: "x l" }), await client.to_here()]).toMatchObject([
      { kind: "documented", status: 200, body: { size: "x l" } },
      { kind: "documented", status: 200, body: { hello: "là-bas" } },
    ]);
  });

  it("is the path `unruffled routes` prints, and that path answers", async () => {
    const printed = routesTable(app.routes)
      .split("\n")
      .slice(1, -1)
      .map((line) => line.split(/\s+/)[1]!);
    expect(printed).toEqual(["/menu/cr%C3%A8me%20br%C3%BBl%C3%A9e/{size}", "/to%20here"]);
    const server = await serve(routes);
    const answers = await Promise.all(
      printed.map(async (shown) => (await server.fetch(shown.replace("{size}", "small"))).status),
    );
    expect(answers).toEqual([200, 200]);
  });
});
