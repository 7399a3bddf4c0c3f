import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { z } from "zod";

const getItems = endpoint({
  // A list goes to the query (rule 9), so {ids} would be read by nothing.
  params: { ids: z.array(z.int()) },
  returns: JsonResponse,
  handler: (_request, { ids }) => new JsonResponse({ ids }),
});

export const app = createApp({
  routes: [path("/items/{ids}", { endpoint: getItems, name: "get_items" })],
});
