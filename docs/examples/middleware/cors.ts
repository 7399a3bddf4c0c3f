import { compression, cors, createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Product = z.object({ id: z.int(), name: z.string() });
const products = [
  { id: 1, name: "Teapot" },
  { id: 2, name: "Kettle" },
];

const listProducts = endpoint({
  params: { repeat: p.Query(z.int(), { default: 1, ge: 1, le: 100 }) },
  returns: [p.ResponseSpec({ model: z.array(Product) })],
  // `repeat` makes a long answer, to see compression at work.
  handler: (_request, { repeat }) => new JsonResponse(Array.from({ length: repeat }, () => products).flat()),
});

const addProduct = endpoint({
  params: { name: p.Json(z.string()) },
  returns: [p.ResponseSpec({ code: "201", model: Product })],
  handler: (_request, { name }) => new JsonResponse({ id: 3, name }, { status: 201 }),
});

// #region app
export const app = createApp({
  middleware: [
    cors({ origins: ["https://shop.example.com"], exposeHeaders: ["x-request-id"] }),
    compression(),
  ],
  routes: [
    path("/products", { endpoint: listProducts }),
    path("/products", { endpoint: addProduct, methods: ["POST"], name: "add_product" }),
  ],
});
// #endregion
