import { createApp } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const hello = endpoint({
  summary: "Say hello",
  params: { name: p.Query(z.string(), { default: "World", maxLength: 50 }) },
  returns: PlainTextResponse,
  handler: (_request, { name }) => new PlainTextResponse(`Hello, ${name}!`),
});

const Item = z.object({ id: z.int(), name: z.string(), price: z.number() }).meta({ id: "Item" });

const getItem = endpoint({
  summary: "Read an item",
  params: { item_id: p.Path(z.int(), { ge: 1, description: "The item's id" }) },
  returns: [p.ResponseSpec({ model: Item, description: "The item" })],
  handler: (_request, { item_id }) => new JsonResponse({ id: item_id, name: "Teapot", price: 12.5 }),
});

export const app = createApp({
  settings: { OPENAPI: { info: { title: "Shop", version: "1.0.0" }, allow_public: true } },
  routes: [
    path("/hello", { endpoint: hello, name: "hello" }),
    path("/items/{item_id}", { endpoint: getItem, name: "get_item" }),
  ],
});
