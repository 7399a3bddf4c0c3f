// Webhooks: requests the API sends to its users, declared with the vocabulary of the endpoints it
// serves, written into the document's top-level `webhooks` (OpenAPI 3.1), and never served.
import { createApp, ValueError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { callback, endpoint, p, path, webhook } from "unruffled/route";
import { apiKeyHeader } from "unruffled/security";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { generateClient } from "../../src/client-generator/index.ts";
import { extrasApp, newSubscription } from "./fixture-extras-app.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonBody = (schema: object) => ({ "application/json": { schema } });

describe("a webhook in the document", () => {
  const document = extrasApp().openapi() as any;

  it("is written under webhooks, by name and method, as the operation a route serving its endpoint has", () => {
    const served = createApp({
      routes: [path("/receiver", { endpoint: newSubscription, methods: ["POST"], name: "receive" })],
    }).openapi() as any;
    const { operationId, ...asRoute } = served.paths["/receiver"].post;
    expect(operationId).toBe("receive");
    expect(Object.keys(document.webhooks)).toEqual(["new-subscription"]);
    expect(document.webhooks["new-subscription"]).toEqual({
      post: { operationId: "post_new_subscription_webhook", ...asRoute },
    });
    expect(asRoute).toEqual({
      summary: "New subscription",
      description: "Sent to the URL the user registered when one of their customers subscribes.",
      parameters: [{ name: "x-signature", in: "header", required: true, schema: { type: "string" } }],
      requestBody: { required: true, content: jsonBody(ref("Subscription")) },
      responses: {
        "200": { description: "Taken", content: jsonBody(ref("Received")) },
        "413": { description: "Content Too Large", content: jsonBody(ref("HTTPError")) },
        "415": { description: "Unsupported Media Type", content: jsonBody(ref("HTTPError")) },
        "422": { description: "Validation Error", content: jsonBody(ref("HTTPValidationError")) },
      },
    });
  });

  it("shares its models' components with the routes, and comes after the paths", () => {
    expect(Object.keys(document)).toEqual(["openapi", "info", "paths", "webhooks", "components"]);
    expect(document.paths["/subscriptions/{username}"].get.responses["200"].content).toEqual(
      jsonBody(ref("Subscription")),
    );
    expect(Object.keys(document.components.schemas)).toEqual([
      "HTTPError",
      "HTTPValidationError",
      "Invoice",
      "InvoiceEvent",
      "Received",
      "Subscription",
      "ValidationIssue",
    ]);
  });

  it("is no path of the document, and no route answers it", async () => {
    expect(Object.keys(document.paths)).toEqual(["/subscriptions/{username}", "/invoices", "/magic"]);
    const client = testClient(extrasApp());
    const answers = await Promise.all(
      ["/new-subscription", "/webhooks/new-subscription"].map((target) =>
        client.post(target, { json: { username: "ann" } }),
      ),
    );
    expect(answers.map((answer) => [answer.status, answer.json()])).toEqual([
      [404, { detail: "Not Found: /new-subscription" }],
      [404, { detail: "Not Found: /webhooks/new-subscription" }],
    ]);
  });

  it("takes its operationId from the webhook's operationId, else the endpoint's name, as a route's name", () => {
    const named = endpoint({ ...newSubscription, name: "subscription_created" });
    const app = createApp({
      routes: [],
      webhooks: [
        webhook("created", { method: "POST", endpoint: named }),
        webhook("renewed", { method: "put", endpoint: newSubscription, operationId: "renewed" }),
      ],
    });
    const webhooks = app.openapi().webhooks as any;
    expect([webhooks.created.post.operationId, webhooks.renewed.put.operationId]).toEqual([
      "subscription_created",
      "renewed",
    ]);
  });

  it("derives an operationId that keeps the letters of its name beyond ASCII, as a route's derived name does", () => {
    const app = createApp({
      routes: [],
      webhooks: [
        webhook("paiement-reçu", { method: "POST", endpoint: newSubscription }),
        webhook("paiement-refusé", { method: "POST", endpoint: newSubscription }),
      ],
    });
    const webhooks = app.openapi().webhooks as any;
    expect([
      webhooks["paiement-reçu"].post.operationId,
      webhooks["paiement-refusé"].post.operationId,
    ]).toEqual(["post_paiement_reçu_webhook", "post_paiement_refusé_webhook"]);
  });

  it("puts two methods of one name under that name, and gives summary, description and tags from the webhook", () => {
    const app = createApp({
      routes: [],
      webhooks: [
        webhook("subscription", { method: "POST", endpoint: newSubscription, tags: ["billing"] }),
        webhook("subscription", {
          method: "DELETE",
          endpoint: newSubscription,
          summary: "Subscription ended",
          description: "Sent when a subscription ends.",
        }),
      ],
    });
    const item = (app.openapi().webhooks as any).subscription;
    expect(Object.keys(item)).toEqual(["post", "delete"]);
    expect([item.post.tags, item.post.summary, item.delete.summary, item.delete.description]).toEqual([
      ["billing"],
      "New subscription",
      "Subscription ended",
      "Sent when a subscription ends.",
    ]);
    expect([item.post.operationId, item.delete.operationId]).toEqual([
      "post_subscription_webhook",
      "delete_subscription_webhook",
    ]);
  });

  it("documents the security scheme a webhook's or a callback's endpoint needs among the document's schemes", () => {
    const signed = apiKeyHeader({ name: "signature", header: "X-Signature", verify: () => "sender" });
    const tokened = apiKeyHeader({
      name: "callbackToken",
      header: "X-Callback-Token",
      verify: () => "sender",
    });
    const secured = (scheme: typeof signed) =>
      endpoint({
        params: { sender: p.Security(scheme), event: p.Json(z.object({ id: z.string() })) },
        returns: JsonResponse,
        handler: () => new JsonResponse({}),
      });
    const app = createApp({
      routes: [
        path("/invoices", {
          endpoint: newSubscription,
          methods: ["POST"],
          callbacks: [
            callback("paid", { url: "{$request.body#/url}", method: "POST", endpoint: secured(tokened) }),
          ],
        }),
      ],
      webhooks: [webhook("signed", { method: "POST", endpoint: secured(signed) })],
    });
    const document = app.openapi() as any;
    expect(document.webhooks.signed.post.security).toEqual([{ signature: [] }]);
    expect(document.components.securitySchemes).toEqual({
      callbackToken: { type: "apiKey", in: "header", name: "X-Callback-Token" },
      signature: { type: "apiKey", in: "header", name: "X-Signature" },
    });
  });

  it("leaves webhooks out of a document that has none", () => {
    const app = createApp({ routes: [path("/x", { endpoint: newSubscription, methods: ["POST"] })] });
    expect("webhooks" in app.openapi()).toBe(false);
  });
});

describe("a malformed webhook is refused when the app is built", () => {
  const build = (webhooks: unknown[]) => () => createApp({ routes: [], webhooks: webhooks as any });

  it("refuses one name and method declared twice, naming them", () => {
    const twice = webhook("new-subscription", { method: "POST", endpoint: newSubscription });
    expect(
      build([twice, webhook("new-subscription", { method: "post", endpoint: newSubscription })]),
    ).toThrow(
      new ValueError(
        'The webhook "new-subscription" is declared twice for POST; give one of them another name or method.',
      ),
    );
    expect(twice).not.toBe(undefined);
  });

  it.each([
    ["{username}/created", '"{" or "}"'],
    ["", "nothing"],
  ])("refuses the name %j, which a webhook cannot have", (name, what) => {
    expect(() => webhook(name, { method: "POST", endpoint: newSubscription })).toThrow(
      new ValueError(
        `webhook(${JSON.stringify(name)}): a webhook's name names the requests the API sends, and has ${what}; a webhook has no path, so no placeholder: send the values in its body or headers.`,
      ),
    );
  });

  it("refuses a method that is not one OpenAPI documents", () => {
    expect(() => webhook("tick", { method: "HEAD", endpoint: newSubscription })).toThrow(
      new ValueError(
        'webhook("tick"): unknown method "HEAD"; use one of GET, POST, PUT, PATCH, DELETE, OPTIONS.',
      ),
    );
  });

  it("refuses an endpoint not made with endpoint()", () => {
    expect(() => webhook("tick", { method: "POST", endpoint: {} as any })).toThrow(
      new ValueError('webhook("tick"): endpoint must be made with endpoint({ ... }).'),
    );
  });

  it("refuses what webhook() did not make, in the app's webhooks", () => {
    expect(build([{ name: "tick" }])).toThrow(
      new ValueError(
        "createApp({ webhooks }): [object Object] is not a webhook; declare each with webhook(name, { method, endpoint }).",
      ),
    );
  });

  it("refuses a parameter read from the path, which a webhook has not", () => {
    const reading = endpoint({
      params: { id: p.Path(z.int()) },
      returns: JsonResponse,
      handler: () => new JsonResponse({}),
    });
    expect(build([webhook("tick", { method: "POST", endpoint: reading })])).toThrow(
      new ValueError(
        'webhook "tick" (POST), parameter "id" is read from the path, but a webhook has no path; send it in the body, a header or the query.',
      ),
    );
  });

  it("refuses an operationId a route already has, naming both", () => {
    const app = () =>
      createApp({
        routes: [path("/subscribe", { endpoint: newSubscription, methods: ["POST"], name: "subscribed" })],
        webhooks: [
          webhook("subscribed", { method: "POST", endpoint: newSubscription, operationId: "subscribed" }),
        ],
      });
    expect(app).toThrow(
      new ValueError(
        'The route POST /subscribe and the webhook "subscribed" (POST) share the name (operationId) "subscribed"; give each its own name.',
      ),
    );
  });
});

describe("a webhook beside the app's own documented routes", () => {
  it("refuses an operationId a documented health route has", () => {
    const app = () =>
      createApp({
        routes: [],
        health: { openapi: true },
        webhooks: [webhook("live", { method: "GET", endpoint: newSubscription, operationId: "health_live" })],
      });
    expect(app).toThrow(
      new ValueError(
        'The route GET /livez and the webhook "live" (GET) share the name (operationId) "health_live"; give each its own name.',
      ),
    );
  });
});

describe("what is not a call of this API", () => {
  it("is not in the generated TypeScript client: a webhook is no member", () => {
    const generated = generateClient(extrasApp());
    expect(generated.match(/^"\w+": \{"method":"\w+","path":"[^"]+"/gm)).toEqual([
      '"read_subscription": {"method":"GET","path":"/subscriptions/{username}"',
      '"create_invoice": {"method":"POST","path":"/invoices"',
      '"magic_data_reader": {"method":"POST","path":"/magic"',
    ]);
    expect(generated).not.toContain("new_subscription");
  });
});
