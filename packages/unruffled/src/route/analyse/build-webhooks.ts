import { ValueError } from "../../errors.ts";
import type { OpenApiExtra } from "../declare/openapi-extra.ts";
import type { Overrides } from "../declare/overrides.ts";
import type {
  CallbackDefinition,
  DocumentedMethod,
  OutgoingOptions,
  WebhookDefinition,
} from "../declare/webhook.ts";
import type { EndpointDescription } from "../description.ts";
import { analyseEndpoint } from "./analyse-endpoint.ts";

/**
 * A request the API sends, analysed as a route's endpoint is: what the document describes, and
 * nothing serves. The fields the document reads of a route, read the same way.
 */
export interface BuiltOutgoing {
  method: DocumentedMethod;
  tags: string[];
  summary: string | undefined;
  description: string | undefined;
  deprecated: boolean;
  endpointDescription: EndpointDescription;
  /** Merged into the operation by the document. */
  openapiExtra: OpenApiExtra | undefined;
}

/**
 * A callback, analysed: the document's `callbacks[name][url][method]` in its route's operation. It
 * has no operationId: it is no call of this API, and a route with two methods writes it twice.
 */
export interface BuiltCallback extends BuiltOutgoing {
  name: string;
  url: string;
}

/** A webhook, analysed: the document's `webhooks[name][method]`. */
export interface BuiltWebhook extends BuiltOutgoing {
  name: string;
  operationId: string;
}

/** What the webhooks' operation ids are checked against: the app's documented routes. */
export interface DocumentedRoute {
  readonly path: string;
  readonly includeInSchema: boolean;
  readonly operationIds: Readonly<Record<string, string>>;
}

export interface BuildOutgoingOptions {
  fileSizeLimit: number;
  /** Replacements for dependencies or schemes, wherever they are declared (tests). */
  overrides?: Overrides | undefined;
}

/**
 * Analyses the app's webhooks once, when the app is built, as routes are: every definition error
 * is raised here. Their operation ids are the document's, so they may not be a route's too.
 */
export function buildWebhooks(
  definitions: readonly WebhookDefinition[] | undefined,
  routes: readonly DocumentedRoute[],
  options: BuildOutgoingOptions,
): BuiltWebhook[] {
  if (definitions === undefined) return [];
  if (!Array.isArray(definitions)) {
    throw new ValueError(
      "createApp({ webhooks }) must be a list such as [webhook(name, { method, endpoint })].",
    );
  }
  const taken = new Map<string, string>();
  for (const route of routes) {
    if (!route.includeInSchema) continue;
    for (const [method, id] of Object.entries(route.operationIds))
      taken.set(id, `route ${method} ${route.path}`);
  }
  const declared = new Set<string>();
  return definitions.map((definition: WebhookDefinition) => {
    if (definition?.kind !== "webhook") {
      throw new ValueError(
        `createApp({ webhooks }): ${String(definition)} is not a webhook; declare each with webhook(name, { method, endpoint }).`,
      );
    }
    const { name, method, endpoint, options: webhookOptions } = definition;
    const label = `webhook "${name}" (${method})`;
    if (declared.has(`${method} ${name}`)) {
      throw new ValueError(
        `The webhook "${name}" is declared twice for ${method}; give one of them another name or method.`,
      );
    }
    declared.add(`${method} ${name}`);
    // Runs of letters and digits of any script, as a route's derived name (derivedName) keeps them.
    const words = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const operationId =
      webhookOptions.operationId ?? endpoint.name ?? [method.toLowerCase(), ...words, "webhook"].join("_");
    const first = taken.get(operationId);
    if (first !== undefined) {
      throw new ValueError(
        `The ${first} and the ${label} share the name (operationId) "${operationId}"; give each its own name.`,
      );
    }
    taken.set(operationId, label);
    return {
      name,
      method,
      operationId,
      ...outgoingDocumentation(webhookOptions, endpoint),
      endpointDescription: analyseEndpoint(endpoint, {
        path: "/",
        label,
        fileSizeLimit: options.fileSizeLimit,
        overrides: options.overrides,
        pathless: "a webhook has no path",
      }),
    };
  });
}

/** The documentation of a request the API sends: its own first, then its endpoint's. */
export function outgoingDocumentation(
  options: OutgoingOptions,
  endpoint: WebhookDefinition["endpoint"],
): Pick<BuiltOutgoing, "tags" | "summary" | "description" | "deprecated" | "openapiExtra"> {
  return {
    openapiExtra: options.openapiExtra,
    tags: [...new Set([...(options.tags ?? []), ...(endpoint.tags ?? [])])],
    summary: options.summary ?? endpoint.summary,
    description: options.description ?? endpoint.description,
    deprecated: endpoint.deprecated ?? false,
  };
}

/** A route's callbacks, analysed with the route, once; `label` names the route in messages. */
export function buildCallbacks(
  definitions: readonly CallbackDefinition[] | undefined,
  label: string,
  options: BuildOutgoingOptions,
): BuiltCallback[] | undefined {
  if (definitions === undefined || definitions.length === 0) return undefined;
  return definitions.map(({ name, url, method, endpoint, options: callbackOptions }) => ({
    name,
    url,
    method,
    ...outgoingDocumentation(callbackOptions, endpoint),
    endpointDescription: analyseEndpoint(endpoint, {
      path: "/",
      label: `callback "${name}" (${method} ${url}) of ${label}`,
      fileSizeLimit: options.fileSizeLimit,
      overrides: options.overrides,
      pathless: "a callback's URL is a runtime expression, which has no placeholder",
    }),
  }));
}
