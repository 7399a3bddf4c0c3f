// Callbacks: requests the API sends once a route's work is done, to a URL that route's request gave,
// written into the route's operation (OpenAPI's operation `callbacks`), and never served.
import { createApp, ValueError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { callback, endpoint, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { generateClient } from "../../src/client-generator/index.ts";
import { createInvoice, extrasApp, INVOICE_URL, invoicePaid } from "./fixture-extras-app.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonBody = (schema: object) => ({ "application/json": { schema } });
const paid = (url = INVOICE_URL, method = "POST") =>
  callback("invoice-paid", { url, method, endpoint: invoicePaid });

describe("a route's callbacks in the document", () => {
  const document = extrasApp().openapi() as any;

  it("are written into the operation by name, then URL, then method, as the operation of a route serving the endpoint, without operationId", () => {
    const served = createApp({
      routes: [path("/receiver", { endpoint: invoicePaid, methods: ["POST"], name: "receive" })],
    }).openapi() as any;
    const { operationId: _, ...asRoute } = served.paths["/receiver"].post;
    const operation = document.paths["/invoices"].post;
    expect(operation.callbacks).toEqual({ "invoice-paid": { [INVOICE_URL]: { post: asRoute } } });
    expect(asRoute).toEqual({
      summary: "Invoice paid",
      requestBody: { required: true, content: jsonBody(ref("InvoiceEvent")) },
      responses: {
        "200": { description: "Successful Response", content: jsonBody(ref("Received")) },
        "413": { description: "Content Too Large", content: jsonBody(ref("HTTPError")) },
        "415": { description: "Unsupported Media Type", content: jsonBody(ref("HTTPError")) },
        "422": { description: "Validation Error", content: jsonBody(ref("HTTPValidationError")) },
      },
    });
    expect(Object.keys(operation)).toEqual(["operationId", "requestBody", "responses", "callbacks"]);
    expect(Object.keys(document.components.schemas)).toContain("InvoiceEvent");
  });

  it("group several URLs and methods under one name, on every documented method of the route", () => {
    const app = createApp({
      routes: [
        path("/invoices", {
          endpoint: createInvoice,
          methods: ["POST", "PUT"],
          callbacks: [
            paid(),
            paid(INVOICE_URL, "PUT"),
            paid("https://audit.example.com/paid?invoice={$request.body#/id}&at={$response.header.Date}"),
            callback("invoice-lost", {
              url: "{$request.query.notify}",
              method: "GET",
              endpoint: invoicePaid,
            }),
          ],
        }),
      ],
    });
    const item = (app.openapi() as any).paths["/invoices"];
    for (const method of ["post", "put"]) {
      expect(Object.keys(item[method].callbacks)).toEqual(["invoice-paid", "invoice-lost"]);
      expect(Object.keys(item[method].callbacks["invoice-paid"])).toEqual([
        INVOICE_URL,
        "https://audit.example.com/paid?invoice={$request.body#/id}&at={$response.header.Date}",
      ]);
      expect(Object.keys(item[method].callbacks["invoice-paid"][INVOICE_URL])).toEqual(["post", "put"]);
      expect(Object.keys(item[method].callbacks["invoice-lost"]["{$request.query.notify}"])).toEqual(["get"]);
    }
  });

  it("are neither served nor paths of the document", async () => {
    expect(Object.keys(document.paths)).toEqual(["/subscriptions/{username}", "/invoices", "/magic"]);
    const answer = await testClient(extrasApp()).post("/invoices/inv-1", {
      json: { description: "x", paid: true },
    });
    expect([answer.status, answer.json()]).toEqual([404, { detail: "Not Found: /invoices/inv-1" }]);
  });

  it("are left out with a route left out of the document", () => {
    const app = createApp({
      routes: [
        path("/invoices", {
          endpoint: createInvoice,
          methods: ["POST"],
          includeInSchema: false,
          callbacks: [paid()],
        }),
      ],
    });
    expect(app.openapi().paths).toEqual({});
    expect(JSON.stringify(app.openapi())).not.toContain("InvoiceEvent");
  });
});

describe("a malformed callback is refused when it is declared", () => {
  it.each([
    ["$url", "{$url}"],
    ["$method", "https://log.example.com/{$method}"],
    ["$statusCode", "https://log.example.com/{$statusCode}"],
    ["a header", "{$request.header.X-Callback-Url}"],
    ["a query field", "{$request.query.callback_url}/done"],
    ["a path placeholder", "{$request.path.id}"],
    ["the whole body", "{$request.body}"],
    ["an escaped pointer", "{$response.body#/links/a~1b~0c}"],
    ["no expression at all", "https://hooks.example.com/paid"],
  ])("takes %s: %s", (_what, url) => {
    expect(paid(url).url).toBe(url);
  });

  it.each([
    [
      "{$callback_url}/invoices",
      "{$callback_url}, which is no runtime expression: a value the client sends is read where it is sent, as {$request.query.callback_url} or {$request.body#/callback_url}",
    ],
    [
      "{$callback_url}/invoices/{$request.body.id}",
      "{$callback_url}, which is no runtime expression: a value the client sends is read where it is sent, as {$request.query.callback_url} or {$request.body#/callback_url}",
    ],
    [
      "{$request.body#/callback_url}/invoices/{$request.body.invoice.id}",
      "{$request.body.invoice.id}, which is no runtime expression: write {$request.body#/invoice/id}",
    ],
    ["{$request.header.}", "{$request.header.}, which is no runtime expression"],
    ["{$request.body#/a~2}", "{$request.body#/a~2}, which is no runtime expression"],
    ["{$requests.body}", "{$requests.body}, which is no runtime expression"],
    ["https://x.example.com/{}", "{}, which is no runtime expression"],
  ])("refuses %j, naming the expression", (url, what) => {
    expect(() => paid(url)).toThrow(
      new ValueError(
        `callback("invoice-paid"): the URL "${url}" has ${what}. One is $url, $method, $statusCode, or $request. or $response. followed by header.<name>, query.<name>, path.<name> or body#/<JSON pointer> (OpenAPI 3.1, Runtime Expressions).`,
      ),
    );
  });

  it.each([
    ["{$request.body#/callback_url", 'has a "{" that no "}" closes'],
    ["{$request.body#/callback_url{$url}}", 'has a "{" that no "}" closes'],
    ["$request.body#/callback_url}/x", 'has a "}" that no "{" opens'],
  ])("refuses the unpaired braces of %j", (url, what) => {
    expect(() => paid(url)).toThrow(new ValueError(`callback("invoice-paid"): the URL "${url}" ${what}.`));
  });

  it("refuses a missing URL and a missing name", () => {
    expect(() => callback("invoice-paid", { method: "POST", endpoint: invoicePaid } as any)).toThrow(
      new ValueError(
        'callback("invoice-paid"): url must be the URL the API sends to, with runtime expressions in braces: "{$request.body#/callback_url}/invoices".',
      ),
    );
    expect(() => callback("", { url: INVOICE_URL, method: "POST", endpoint: invoicePaid })).toThrow(
      new ValueError('callback(""): a callback needs a name, such as "invoice-paid".'),
    );
  });

  it("refuses one name, URL and method declared twice on a route", () => {
    expect(() =>
      path("/invoices", { endpoint: createInvoice, methods: ["POST"], callbacks: [paid(), paid()] }),
    ).toThrow(
      new ValueError(
        `path("/invoices"): the callback "invoice-paid" is declared twice for POST ${INVOICE_URL}; give one of them another name, URL or method.`,
      ),
    );
  });

  it("refuses callbacks that are not a list of callback(), and callbacks on a group", () => {
    expect(() => path("/invoices", { endpoint: createInvoice, callbacks: paid() as any })).toThrow(
      new ValueError(
        'path("/invoices"): callbacks must be a list such as [callback(name, { url, method, endpoint })].',
      ),
    );
    expect(() => path("/invoices", { endpoint: createInvoice, callbacks: [invoicePaid as any] })).toThrow(
      new ValueError(
        'path("/invoices"): [object Object] is not a callback; declare each with callback(name, { url, method, endpoint }).',
      ),
    );
    expect(() => path("/billing", { routes: [], callbacks: [paid()] } as any)).toThrow(
      new ValueError(
        'path("/billing"): callbacks belong to a route with an endpoint, whose request sets them off.',
      ),
    );
  });

  it("refuses, when the app is built, a callback endpoint that reads the path, naming the route", () => {
    const reading = endpoint({
      params: { id: p.Path(z.string()) },
      returns: JsonResponse,
      handler: () => new JsonResponse({}),
    });
    const build = () =>
      createApp({
        routes: [
          path("/invoices", {
            endpoint: createInvoice,
            methods: ["POST"],
            name: "create_invoice",
            callbacks: [callback("invoice-paid", { url: INVOICE_URL, method: "POST", endpoint: reading })],
          }),
        ],
      });
    expect(build).toThrow(
      new ValueError(
        `callback "invoice-paid" (POST ${INVOICE_URL}) of endpoint "create_invoice" (POST /invoices), parameter "id" is read from the path, but a callback's URL is a runtime expression, which has no placeholder; send it in the body, a header or the query.`,
      ),
    );
  });
});

describe("a callback is not a call of this API", () => {
  it("is no member of the generated TypeScript client; its route is one", () => {
    const generated = generateClient(extrasApp());
    expect(generated.match(/^"\w+": \{"method":"\w+","path":"[^"]+"/gm)).toEqual([
      '"read_subscription": {"method":"GET","path":"/subscriptions/{username}"',
      '"create_invoice": {"method":"POST","path":"/invoices"',
      '"magic_data_reader": {"method":"POST","path":"/magic"',
    ]);
    expect(generated).not.toContain("InvoiceEvent");
    expect(generated).not.toContain("callback_url}");
  });
});
