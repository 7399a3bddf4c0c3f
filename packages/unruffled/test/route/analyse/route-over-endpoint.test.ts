// docs/endpoints-and-routes.md, "path()": a route's summary and description override its endpoint's,
// tags add up from the groups, the route and the endpoint, and includeInSchema: false leaves a route
// out of the document while it is still served.
import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { startServer } from "unruffled/testing";
import { expect, it } from "vitest";

const books = endpoint({
  summary: "List books",
  description: "Every book.",
  tags: ["books"],
  deprecated: true,
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("ok"),
});

type Operation = Record<string, unknown>;
const operationsOf = (app: ReturnType<typeof createApp>) =>
  (app.openapi() as unknown as { paths: Record<string, Record<string, Operation>> }).paths;

it("documents the route's summary and description over the endpoint's, and the endpoint's when it gives none", () => {
  const {
    operationId: _a,
    responses: _b,
    ...overridden
  } = operationsOf(
    createApp({
      routes: [
        path("/a", { endpoint: books, name: "a", summary: "Read the shelf", description: "Shelf A." }),
      ],
    }),
  )["/a"]!.get!;
  const {
    operationId: _c,
    responses: _d,
    ...inherited
  } = operationsOf(createApp({ routes: [path("/b", { endpoint: books, name: "b" })] }))["/b"]!.get!;
  expect([overridden, inherited]).toEqual([
    { summary: "Read the shelf", description: "Shelf A.", tags: ["books"], deprecated: true },
    { summary: "List books", description: "Every book.", tags: ["books"], deprecated: true },
  ]);
});

it("adds the tags of the groups, from the outside in, then the route's, then the endpoint's, each once", () => {
  const app = createApp({
    routes: [
      path("/api", {
        tags: ["api"],
        routes: [
          path("/library", {
            tags: ["library"],
            routes: [path("/books", { endpoint: books, tags: ["shelf", "books"] })],
          }),
        ],
      }),
    ],
  });
  expect(operationsOf(app)["/api/library/books"]!.get!.tags).toEqual(["api", "library", "shelf", "books"]);
});

it("leaves a route with includeInSchema: false out of the document, and still serves it", async () => {
  const app = createApp({
    routes: [
      path("/ping", { endpoint: books, name: "ping", includeInSchema: false }),
      path("/b", { endpoint: books }),
    ],
  });
  expect(Object.keys(operationsOf(app))).toEqual(["/b"]);
  const server = await startServer(app);
  try {
    const response = await server.fetch("/ping");
    expect([response.status, await response.text()]).toEqual([200, "ok"]);
  } finally {
    await server.close();
  }
});
