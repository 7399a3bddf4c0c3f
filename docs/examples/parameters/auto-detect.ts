import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { z } from "zod";

const Review = z.object({ stars: z.int().min(1).max(5), text: z.string() });

const reviewBook = endpoint({
  params: {
    book_id: z.int(), // a scalar named like a placeholder: Path
    draft: z.boolean().optional(), // another scalar: Query
    review: Review, // a model: Json
  },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params),
});

export const app = createApp({
  routes: [path("/books/{book_id}/reviews", { endpoint: reviewBook, methods: ["POST"] })],
});
