import { createApp, problemType } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

// #region type
const OutOfStock = problemType({
  type: "https://example.org/problems/out-of-stock",
  title: "Out of stock",
  status: 409,
  model: z.object({ sku: z.string() }),
});

const reserve = endpoint({
  params: { sku: p.Path(z.string()), count: p.Query(z.int().gt(0)) },
  returns: [
    p.ResponseSpec({ code: "201", model: z.object({ sku: z.string(), count: z.int() }) }),
    OutOfStock.response,
  ],
  handler(_request, { sku, count }) {
    if (sku === "tea") throw OutOfStock.error(`Only 2 "${sku}" left`, { sku });
    return new JsonResponse({ sku, count }, { status: 201 });
  },
});

export const app = createApp({
  settings: { ERRORS: { format: "problem" } },
  routes: [path("/stock/{sku}/reservations", { endpoint: reserve, methods: ["POST"] })],
});
// #endregion
