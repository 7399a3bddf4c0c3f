import { createApp, exceptionHandler, HttpError, NotFoundError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const stock = new Map([["tea", 3]]);
const Reservation = z.object({ sku: z.string(), count: z.int() }).meta({ id: "Reservation" });
const OutOfStockBody = z.object({ detail: z.string(), sku: z.string() }).meta({ id: "OutOfStock" });

// #region raise
const getStock = endpoint({
  params: { sku: p.Path(z.string()) },
  returns: JsonResponse,
  handler(_request, { sku }) {
    const count = stock.get(sku);
    if (count === undefined) throw new NotFoundError(`No item "${sku}"`);
    return new JsonResponse({ sku, count });
  },
});

const reserve = endpoint({
  params: { sku: p.Path(z.string()), token: p.Header(z.string().optional()) },
  returns: [
    p.ResponseSpec({ code: "201", model: Reservation }),
    p.ResponseSpec({ code: "409", model: OutOfStockBody, description: "Out of stock" }),
  ],
  handler(_request, { sku, token }) {
    if (token === undefined) throw new HttpError(401, "Sign in first", { "www-authenticate": "Bearer" });
    throw new OutOfStock(sku);
  },
});
// #endregion

// #region handler
class OutOfStock extends Error {
  readonly sku: string;
  constructor(sku: string) {
    super(`"${sku}" is out of stock`);
    this.sku = sku;
  }
}

const outOfStock = exceptionHandler(
  OutOfStock,
  (error) => new JsonResponse({ detail: error.message, sku: error.sku }, { status: 409 }),
);

export const app = createApp({
  routes: [
    path("/stock/{sku}", { endpoint: getStock }),
    path("/stock/{sku}/reservations", { endpoint: reserve, methods: ["POST"] }),
  ],
  exceptionHandlers: [outOfStock],
});
// #endregion
