import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { callback, endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Invoice = z.object({ id: z.string(), customer: z.string(), total: z.number() });

const invoicePaid = endpoint({
  params: { event: p.Json(z.object({ description: z.string(), paid: z.boolean() })) },
  returns: JsonResponse,
  handler: () => new JsonResponse({ ok: true }),
});

const createInvoice = endpoint({
  params: { invoice: p.Json(Invoice), callback_url: p.Query(z.url()) },
  returns: JsonResponse,
  handler: () => new JsonResponse({ msg: "Invoice received" }),
});

export const app = createApp({
  routes: [
    path("/invoices", {
      endpoint: createInvoice,
      methods: ["POST"],
      // FastAPI's tutorial writes this URL; OpenAPI defines neither expression.
      callbacks: [
        callback("invoice-paid", {
          url: "{$callback_url}/invoices/{$request.body.id}",
          method: "POST",
          endpoint: invoicePaid,
        }),
      ],
    }),
  ],
});
