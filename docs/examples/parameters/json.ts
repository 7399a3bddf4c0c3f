import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const NewBook = z
  .object({
    title: z.string().min(1),
    year: z.int().optional(),
    authors: z.array(z.string()).default([]),
  })
  .meta({ id: "NewBook" });

// Alone, the model is the whole body.
const addBook = endpoint({
  params: { book: p.Json(NewBook) },
  returns: JsonResponse,
  handler: (_request, { book }) => new JsonResponse(book, { status: 201 }),
});

// Beside a scalar, each reads its own top-level keys: the model's fields, and "notify".
const importBook = endpoint({
  params: { book: p.Json(NewBook), notify: p.Json(z.boolean(), { default: false }) },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params, { status: 201 }),
});

export const app = createApp({
  routes: [
    path("/books", { endpoint: addBook, methods: ["POST"] }),
    path("/imports", { endpoint: importBook, methods: ["POST"] }),
  ],
});
