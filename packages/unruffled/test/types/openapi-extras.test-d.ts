// Type tests for what the document says beyond the routes (webhooks, callbacks, openapiExtra):
// checked by `tsc`, never run.
import { type App, createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import type { OpenApiDocument } from "unruffled/openapi";
import {
  type CallbackDefinition,
  callback,
  endpoint,
  p,
  path,
  type WebhookDefinition,
  webhook,
} from "unruffled/route";
import { expectTypeOf } from "vitest";
import { z } from "zod";

const sent = endpoint({
  params: { event: p.Json(z.object({ id: z.string() })) },
  returns: JsonResponse,
  handler: () => new JsonResponse({ ok: true }),
});

const created = webhook("created", {
  method: "POST",
  endpoint: sent,
  tags: ["events"],
  operationId: "created",
});
expectTypeOf(created).toEqualTypeOf<WebhookDefinition>();
// @ts-expect-error a webhook needs its endpoint
webhook("created", { method: "POST" });
// @ts-expect-error a webhook needs its method
webhook("created", { endpoint: sent });

const paid = callback("paid", { url: "{$request.body#/callback_url}", method: "POST", endpoint: sent });
expectTypeOf(paid).toEqualTypeOf<CallbackDefinition>();
// @ts-expect-error a callback needs the URL it goes to
callback("paid", { method: "POST", endpoint: sent });

const app = createApp({
  webhooks: [created],
  routes: [
    path("/invoices", {
      endpoint: sent,
      methods: ["POST"],
      callbacks: [paid],
      openapiExtra: { "x-internal": true, responses: { "404": { description: "No such invoice" } } },
    }),
  ],
});
expectTypeOf(app).toEqualTypeOf<App>();
expectTypeOf<OpenApiDocument["webhooks"]>().toEqualTypeOf<OpenApiDocument["paths"] | undefined>();

// @ts-expect-error openapiExtra is an object merged into the operation
path("/x", { endpoint: sent, openapiExtra: "x-internal" });
// @ts-expect-error webhooks are webhook()s
createApp({ routes: [], webhooks: [paid] });

// An operation's `x-` extensions (openapiExtra's) are typed as unknown, read without a cast.
const operation = app.openapi().paths["/invoices"]?.post;
expectTypeOf(operation?.["x-internal"]).toEqualTypeOf<unknown>();
