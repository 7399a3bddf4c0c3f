import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const searchBooks = endpoint({
  params: {
    q: p.Query(z.string(), { minLength: 2, description: "Words of the title" }), // required
    page: p.Query(z.int(), { default: 1, ge: 1 }), // optional: it has a default
    lang: p.Query(z.enum(["en", "fr"]).optional()), // optional: undefined when absent
    tag: p.Query(z.array(z.string()), { default: [] }), // ?tag=a&tag=b
    perPage: p.Query(z.int(), { alias: "per-page", default: 20, le: 100 }), // read as ?per-page=
  },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params),
});

// A model groups query parameters; its fields carry their own defaults.
const Filters = z.object({
  available: z.boolean().default(true),
  year: z.int().optional(),
});

const listBooks = endpoint({
  params: { filters: p.Query(Filters) },
  returns: JsonResponse,
  handler: (_request, { filters }) => new JsonResponse(filters),
});

export const app = createApp({
  routes: [path("/search", { endpoint: searchBooks }), path("/books", { endpoint: listBooks })],
});
