import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path, webhook } from "unruffled/route";
import { z } from "zod";

const Subscription = z
  .object({ username: z.string(), monthly_fee: z.number(), start_date: z.iso.datetime() })
  .meta({ id: "Subscription" });

// What the API sends to the URL a user registered, and the answer it expects back.
const newSubscription = endpoint({
  summary: "New subscription",
  params: {
    subscription: p.Json(Subscription),
    x_signature: p.Header(z.string(), { description: "HMAC of the body" }),
  },
  returns: [p.ResponseSpec({ model: z.object({ ok: z.boolean() }), description: "Received" })],
  handler: () => new JsonResponse({ ok: true }), // never called by this app
});

const listSubscriptions = endpoint({
  returns: [p.ResponseSpec({ model: z.array(Subscription) })],
  handler: () => new JsonResponse([]),
});

export const app = createApp({
  routes: [path("/subscriptions", { endpoint: listSubscriptions, name: "list_subscriptions" })],
  webhooks: [webhook("new-subscription", { method: "POST", endpoint: newSubscription })],
});
