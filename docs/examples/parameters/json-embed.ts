import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Item = z.object({ name: z.string(), price: z.number() }).meta({ id: "Item" });

// Embedded, the model is read from the body's key "item": {"item": {"name": …, "price": …}}.
const updateItem = endpoint({
  params: { item_id: p.Path(z.int()), item: p.Json(Item, { embed: true }) },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params),
});

export const app = createApp({
  routes: [path("/items/{item_id}", { endpoint: updateItem, methods: ["PUT"] })],
});
