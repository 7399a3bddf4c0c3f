// docs/endpoints-and-routes.md, "path()": a route's name is its operationId; without one it is the
// endpoint's name, else its method and path; a route with several methods gets one id per method.
import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { expect, it } from "vitest";

const ok = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("ok") });
const named = endpoint({
  name: "read_book",
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("ok"),
});

/** "METHOD path operationId" of every operation of the app's document, in its order. */
function operations(routes: Parameters<typeof createApp>[0]["routes"]): string[] {
  const document = createApp({ routes }).openapi() as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  return Object.entries(document.paths).flatMap(([route, item]) =>
    Object.entries(item).map(
      ([method, operation]) => `${method.toUpperCase()} ${route} ${operation.operationId}`,
    ),
  );
}

it("names a route without a name after its method and its full path, placeholders included", () => {
  expect(
    operations([
      path("/api/v1", { routes: [path("/books", { routes: [path("/", { endpoint: ok })] })] }),
      path("/items/{item_id}", { endpoint: ok, methods: ["DELETE"] }),
    ]),
  ).toEqual(["GET /api/v1/books get_api_v1_books", "DELETE /items/{item_id} delete_items_item_id"]);
});

it("takes the endpoint's name when the route gives none, and the route's name over it", () => {
  expect(
    operations([
      path("/books/{id}", { endpoint: named }),
      path("/b/{id}", { endpoint: named, name: "read_b" }),
    ]),
  ).toEqual(["GET /books/{id} read_book", "GET /b/{id} read_b"]);
});

it("gives a route with several methods one operationId per method, name_method, and HEAD none", () => {
  expect(
    operations([
      path("/books", { endpoint: ok, methods: ["GET", "POST", "HEAD"], name: "books" }),
      path("/shelves", { endpoint: ok, methods: ["PUT", "PATCH"], name: "shelves", operationId: "shelf" }),
      path("/authors", { endpoint: ok, name: "authors", operationId: "list_authors" }),
    ]),
  ).toEqual([
    "GET /books books_get",
    "POST /books books_post",
    "PUT /shelves shelf_put",
    "PATCH /shelves shelf_patch",
    "GET /authors list_authors",
  ]);
});
