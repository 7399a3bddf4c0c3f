import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { callback, endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Invoice = z
  .object({ id: z.string(), customer: z.string(), total: z.number(), callback_url: z.url() })
  .meta({ id: "Invoice" });

const InvoiceEvent = z.object({ description: z.string(), paid: z.boolean() }).meta({ id: "InvoiceEvent" });

// What the API sends to the invoice's callback URL once it is paid, and the answer it expects.
const invoicePaid = endpoint({
  params: { event: p.Json(InvoiceEvent) },
  returns: [p.ResponseSpec({ model: z.object({ ok: z.boolean() }) })],
  handler: () => new JsonResponse({ ok: true }), // never called by this app
});

const createInvoice = endpoint({
  params: { invoice: p.Json(Invoice) },
  returns: [p.ResponseSpec({ code: "201", model: z.object({ msg: z.string() }) })],
  handler: () => new JsonResponse({ msg: "Invoice received" }, { status: 201 }),
});

export const app = createApp({
  routes: [
    path("/invoices", {
      endpoint: createInvoice,
      methods: ["POST"],
      name: "create_invoice",
      callbacks: [
        callback("invoice-paid", {
          url: "{$request.body#/callback_url}/invoices/{$request.body#/id}",
          method: "POST",
          endpoint: invoicePaid,
        }),
      ],
    }),
  ],
});
