// An app that documents more than its routes: webhooks (requests it sends to its users), for the
// document's tests, the validators and the `unruffled openapi` command.
import { type App, createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path, webhook } from "unruffled/route";
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

export function extrasApp(): App {
  return createApp({
    routes: [path("/subscriptions/{username}", { endpoint: readSubscription, name: "read_subscription" })],
    webhooks: [webhook("new-subscription", { method: "POST", endpoint: newSubscription })],
  });
}

export const app = extrasApp();
