import { createApp } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Book = z.object({ id: z.int(), title: z.string() }).meta({ id: "Book" });
const NewBook = z.object({ title: z.string().min(1) }).meta({ id: "NewBook" });

// #region endpoints
const listBooks = endpoint({
  summary: "List books",
  description: "Every book, in the order they were added.",
  tags: ["books"],
  returns: [p.ResponseSpec({ model: z.array(Book), description: "The books" })],
  handler: () => new JsonResponse([{ id: 1, title: "Dune" }]),
});

const addBook = endpoint({
  summary: "Add a book",
  params: { book: p.Json(NewBook) },
  returns: [p.ResponseSpec({ model: Book, code: "201", description: "The book, with its id" })],
  // A handler may be async; it returns a response object.
  async handler(_request, { book }) {
    return new JsonResponse({ id: 2, title: book.title }, { status: 201 });
  },
});

const ping = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("pong"),
});
// #endregion

// #region routes
const bookRoutes = [
  path("/", { endpoint: listBooks, name: "list_books" }), // GET, and HEAD
  path("/", { endpoint: addBook, methods: ["POST"], name: "add_book" }),
];

export const app = createApp({
  routes: [
    path("/ping", { endpoint: ping, name: "ping", includeInSchema: false }),
    path("/api/v1", {
      routes: [path("/books", { routes: bookRoutes, tags: ["library"] })],
    }),
  ],
});
// #endregion
