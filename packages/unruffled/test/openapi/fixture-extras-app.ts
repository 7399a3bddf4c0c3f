// An app that documents more than its routes: webhooks (requests it sends to its users),
// callbacks (requests it sends once a route's work is done) and an operation extended by hand
// (openapiExtra), for the document's tests, the validators and the `unruffled openapi` command.
import { type App, createApp, type Settings } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { callback, endpoint, p, path, webhook } from "unruffled/route";
import { z } from "zod";

export const Subscription = z
  .object({ username: z.string(), monthly_fee: z.number(), start_date: z.iso.datetime() })
  .meta({ id: "Subscription" });

export const Received = z.object({ ok: z.boolean() }).meta({ id: "Received" });

/** What the app sends when a user subscribes: the same vocabulary as an endpoint it serves. */
export const newSubscription = endpoint({
  summary: "New subscription",
  description: "Sent to the URL the user registered when one of their customers subscribes.",
  params: { subscription: p.Json(Subscription), x_signature: p.Header(z.string()) },
  returns: [p.ResponseSpec({ model: Received, description: "Taken" })],
  handler: () => new JsonResponse({ ok: true }),
});

/** A route that answers with the same model the webhook sends: one component for both. */
export const readSubscription = endpoint({
  params: { username: z.string() },
  returns: [p.ResponseSpec({ model: Subscription })],
  handler: (_request, { username }) =>
    new JsonResponse({ username, monthly_fee: 10, start_date: "2026-01-01T00:00:00Z" }),
});

export const Invoice = z
  .object({ id: z.string(), customer: z.string(), total: z.number(), callback_url: z.url() })
  .meta({ id: "Invoice" });

export const InvoiceEvent = z
  .object({ description: z.string(), paid: z.boolean() })
  .meta({ id: "InvoiceEvent" });

export const createInvoice = endpoint({
  params: { invoice: p.Json(Invoice) },
  returns: [p.ResponseSpec({ code: "201", model: z.object({ msg: z.string() }) })],
  handler: () => new JsonResponse({ msg: "Invoice received" }, { status: 201 }),
});

/** What the API sends to the invoice's callback URL once it is paid, and the answer it expects. */
export const invoicePaid = endpoint({
  summary: "Invoice paid",
  params: { event: p.Json(InvoiceEvent) },
  returns: [p.ResponseSpec({ model: Received })],
  handler: () => new JsonResponse({ ok: true }),
});

/** FastAPI's tutorial: an endpoint that reads its body itself, described by hand with openapiExtra. */
export const magicDataReader = endpoint({
  returns: JsonResponse,
  handler: async (request) => new JsonResponse({ ...((await request.json()) as object), magic: true }),
});

export const MAGIC_BODY = {
  requestBody: {
    content: {
      "application/json": {
        schema: {
          type: "object",
          required: ["name", "price"],
          properties: {
            name: { type: "string" },
            price: { type: "number" },
            description: { type: "string" },
          },
        },
      },
    },
    required: true,
  },
};

export const INVOICE_URL = "{$request.body#/callback_url}/invoices/{$request.body#/id}";

export function extrasApp(settings?: Settings): App {
  return createApp({
    ...(settings === undefined ? {} : { settings }),
    routes: [
      path("/subscriptions/{username}", { endpoint: readSubscription, name: "read_subscription" }),
      path("/invoices", {
        endpoint: createInvoice,
        methods: ["POST"],
        name: "create_invoice",
        callbacks: [callback("invoice-paid", { url: INVOICE_URL, method: "POST", endpoint: invoicePaid })],
      }),
      path("/magic", {
        endpoint: magicDataReader,
        methods: ["POST"],
        name: "magic_data_reader",
        openapiExtra: { ...MAGIC_BODY, "x-aperture-labs-portal": "blue" },
      }),
    ],
    webhooks: [webhook("new-subscription", { method: "POST", endpoint: newSubscription })],
  });
}

export const app = extrasApp();
