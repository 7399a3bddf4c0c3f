import { ValueError } from "../../errors.ts";
import type { EndpointDefinition } from "./endpoint.ts";
import { checkOpenApiExtra, type OpenApiExtra } from "./openapi-extra.ts";
import { checkCallbackUrl } from "./runtime-expression.ts";

/** The methods an OpenAPI Path Item documents (HEAD is GET's, and never documented here). */
export const DOCUMENTED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type DocumentedMethod = (typeof DOCUMENTED_METHODS)[number];

/** What a request the API sends is, as a route is: an endpoint and how the document names it. */
export interface OutgoingOptions {
  /** `"POST"` (any case): the method the API sends the request with. */
  method: string;
  /** The request the API sends (parameters, body) and the answers it expects (`returns`). */
  endpoint: EndpointDefinition<any, any, any>;
  summary?: string;
  description?: string;
  tags?: string[];
  /** Merged into the operation, as a route's `openapiExtra` (docs/openapi.md). */
  openapiExtra?: OpenApiExtra;
}

export interface WebhookOptions extends OutgoingOptions {
  /** The operation's id in the document; default the endpoint's name, else `post_<name>_webhook`. */
  operationId?: string;
}

/** A webhook as declared: `webhook(name, { method, endpoint })`. The app analyses it when it is built. */
export interface WebhookDefinition {
  readonly kind: "webhook";
  readonly name: string;
  readonly method: DocumentedMethod;
  readonly endpoint: EndpointDefinition<any, any, any>;
  readonly options: WebhookOptions;
}

/**
 * Declares a webhook: a request the API sends to its users (to the URL each registered), documented
 * in the OpenAPI document's `webhooks` as a route's operation is, and never served. The endpoint
 * says what is sent (`p.Json`, `p.Header`) and what answers the API expects (`returns`); its handler
 * is never called by this app (the same endpoint can serve as the receiver in a test).
 *
 * @example
 * createApp({ routes, webhooks: [webhook("new-subscription", { method: "POST", endpoint: newSubscription })] })
 */
export function webhook(name: string, options: WebhookOptions): WebhookDefinition {
  const where = `webhook(${JSON.stringify(name)})`;
  if (typeof name !== "string" || name === "" || /[{}]/.test(name)) {
    const what = typeof name === "string" && name !== "" ? '"{" or "}"' : "nothing";
    throw new ValueError(
      `${where}: a webhook's name names the requests the API sends, and has ${what}; a webhook has no path, so no placeholder: send the values in its body or headers.`,
    );
  }
  const method = checkedOutgoing(where, options);
  return Object.freeze({ kind: "webhook", name, method, endpoint: options.endpoint, options });
}

/** Checks what every request the API sends declares, and returns its method in capitals. */
export function checkedOutgoing(where: string, options: OutgoingOptions): DocumentedMethod {
  if (typeof options !== "object" || options === null) {
    throw new ValueError(`${where} takes its options: { method: "POST", endpoint }.`);
  }
  if (options.endpoint?.kind !== "endpoint") {
    throw new ValueError(`${where}: endpoint must be made with endpoint({ ... }).`);
  }
  const method = String(options.method).toUpperCase() as DocumentedMethod;
  if (!DOCUMENTED_METHODS.includes(method)) {
    throw new ValueError(
      `${where}: unknown method "${String(options.method)}"; use one of ${DOCUMENTED_METHODS.join(", ")}.`,
    );
  }
  if (options.openapiExtra !== undefined) checkOpenApiExtra(where, options.openapiExtra);
  return method;
}

export interface CallbackOptions extends OutgoingOptions {
  /**
   * Where the API sends the request: a URL whose `{…}` parts are OpenAPI runtime expressions, read
   * from the request that set it off: `"{$request.body#/callback_url}/invoices/{$request.body#/id}"`.
   */
  url: string;
}

/** A callback as declared: `callback(name, { url, method, endpoint })`, in a route's `callbacks`. */
export interface CallbackDefinition {
  readonly kind: "callback";
  readonly name: string;
  readonly url: string;
  readonly method: DocumentedMethod;
  readonly endpoint: EndpointDefinition<any, any, any>;
  readonly options: CallbackOptions;
}

/**
 * Declares a callback: a request the API sends, to a URL the request of a route gave, once that
 * route's work is done (OpenAPI's operation `callbacks`, FastAPI's `callbacks=`). Documented in the
 * route's operation, under its name and URL, as a route's operation is; never served. The URL's
 * runtime expressions are checked here.
 *
 * @example
 * path("/invoices", { endpoint: createInvoice, methods: ["POST"], callbacks: [
 *   callback("invoice-paid", { url: "{$request.body#/callback_url}/invoices/{$request.body#/id}", method: "POST", endpoint: invoicePaid }),
 * ] })
 */
export function callback(name: string, options: CallbackOptions): CallbackDefinition {
  const where = `callback(${JSON.stringify(name)})`;
  if (typeof name !== "string" || name === "") {
    throw new ValueError(`${where}: a callback needs a name, such as "invoice-paid".`);
  }
  const method = checkedOutgoing(where, options);
  checkCallbackUrl(options.url, where);
  return Object.freeze({
    kind: "callback",
    name,
    url: options.url,
    method,
    endpoint: options.endpoint,
    options,
  });
}

/** A route's `callbacks`, checked where `path()` is called: a list of `callback()`s, none twice. */
export function checkedCallbacks(
  routePath: string,
  callbacks: unknown,
): readonly CallbackDefinition[] | undefined {
  if (callbacks === undefined) return undefined;
  const where = `path("${routePath}")`;
  if (!Array.isArray(callbacks)) {
    throw new ValueError(
      `${where}: callbacks must be a list such as [callback(name, { url, method, endpoint })].`,
    );
  }
  const seen = new Set<string>();
  for (const entry of callbacks as CallbackDefinition[]) {
    if (entry?.kind !== "callback") {
      throw new ValueError(
        `${where}: ${String(entry)} is not a callback; declare each with callback(name, { url, method, endpoint }).`,
      );
    }
    const key = JSON.stringify([entry.name, entry.url, entry.method]);
    if (seen.has(key)) {
      throw new ValueError(
        `${where}: the callback "${entry.name}" is declared twice for ${entry.method} ${entry.url}; give one of them another name, URL or method.`,
      );
    }
    seen.add(key);
  }
  return callbacks;
}
