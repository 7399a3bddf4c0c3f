import { createApp } from "unruffled";
import { EventStreamResponse, JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { z } from "zod";

const Item = z.object({ id: z.int(), name: z.string(), added: z.date() }).meta({ id: "Item" });
const NewItem = z.object({ name: z.string().min(1) }).meta({ id: "NewItem" });
const staff = httpBearer({ verify: (token) => (token === "staff-token" ? { role: "staff" } : null) });
const items = [{ id: 1, name: "Kettle", added: new Date("2025-03-01T09:00:00Z") }];

const listItems = endpoint({
  params: {
    page: p.Query(z.int(), { default: 1, ge: 1 }),
    tag: p.Query(z.array(z.string()), { default: [] }),
  },
  returns: [p.ResponseSpec({ model: z.array(Item) })],
  handler: () => new JsonResponse(items),
});

const addItem = endpoint({
  params: { user: p.Security(staff), item: p.Json(NewItem) },
  returns: [p.ResponseSpec({ code: "201", model: Item })],
  handler: (_request, { item }) =>
    new JsonResponse({ id: items.length + 1, name: item.name, added: new Date() }, { status: 201 }),
});

const uploadPicture = endpoint({
  params: { item_id: p.Path(z.int()), picture: p.File(), caption: p.Form(z.string()) },
  returns: [p.ResponseSpec({ model: z.object({ bytes: z.int(), caption: z.string() }) })],
  handler: (_request, { picture, caption }) => new JsonResponse({ bytes: picture.size, caption }),
});

const stock = endpoint({
  params: { item_id: p.Query(z.int()) },
  returns: [p.ResponseSpec({ model: z.object({ left: z.int() }), content_type: "text/event-stream" })],
  handler: (_request, { item_id }) =>
    new EventStreamResponse(
      (async function* () {
        for (let left = 3; left >= 0; left--) yield { data: { left: left * item_id } };
      })(),
    ),
});

export const app = createApp({
  routes: [
    path("/items", { endpoint: listItems, name: "list_items" }),
    path("/items", { endpoint: addItem, methods: ["POST"], name: "add_item" }),
    path("/items/{item_id}/picture", { endpoint: uploadPicture, methods: ["POST"], name: "upload_picture" }),
    path("/stock", { endpoint: stock, name: "stock" }),
  ],
});
