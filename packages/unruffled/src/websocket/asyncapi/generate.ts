import type { z } from "zod";
import { wirePath } from "../../client/encode-request.ts";
import { ValueError } from "../../errors.ts";
import { isDeepStrictEqual } from "../../node-builtins.ts";
import { DEFAULT_INFO } from "../../openapi/generate.ts";
import { mergeComponents } from "../../openapi/merge-components.ts";
import { HttpValidationErrorSchema } from "../../openapi/operation/error-schemas.ts";
import { AnonymousNames, SchemaConverter } from "../../openapi/schema-converter.ts";
import type { OpenApiSettings } from "../../openapi/settings.ts";
import type { JsonSchema } from "../../openapi/types.ts";
import type { ParamDescription } from "../../route/description.ts";
import type { BuiltWebSocketRoute } from "../built-route.ts";
import { toAsyncApiSecurityScheme } from "./security.ts";

/** An AsyncAPI 3.0 document, as plain JSON. */
export type AsyncApiDocument = Record<string, unknown> & { asyncapi: "3.0.0" };

/** What the document is made from: the WebSocket routes and the `OPENAPI` settings (title, version). */
export interface AsyncApiApp {
  readonly websocketRoutes: readonly BuiltWebSocketRoute[];
  readonly settings: { readonly OPENAPI?: OpenApiSettings | undefined };
}

const documents = new WeakMap<AsyncApiApp, AsyncApiDocument>();

/** The name of the error message a socket sends for an inbound message its model refuses. */
export const INVALID_MESSAGE = "MessageValidationError";

/**
 * The AsyncAPI 3.0 document of an app's WebSocket routes, generated once from the same analysed
 * declarations that serve them: one channel per route (its address, path parameters and ws binding
 * with the query and headers of the upgrade), two operations (the messages the app receives, those
 * it sends), the message schemas under the names the OpenAPI document gives them (`.meta({ id })`),
 * and the security schemes mirrored from the OpenAPI ones.
 *
 * @example writeFileSync("asyncapi.json", JSON.stringify(generateAsyncApi(app), null, 2));
 */
export function generateAsyncApi(app: AsyncApiApp): AsyncApiDocument {
  let document = documents.get(app);
  if (document === undefined) {
    document = buildDocument(app);
    documents.set(app, document);
  }
  return document;
}

function buildDocument(app: AsyncApiApp): AsyncApiDocument {
  const anonymous = new AnonymousNames();
  const input = new SchemaConverter("input", anonymous);
  const output = new SchemaConverter("output", anonymous);
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const securitySchemes: Record<string, unknown> = {};
  const settings = app.settings.OPENAPI;
  const base = settings?.servers?.[0]?.url;
  const addMessage = (name: string, payload: JsonSchema, label: string) => {
    const message = { name, contentType: "application/json", payload };
    if (messages[name] !== undefined && !isDeepStrictEqual(messages[name], message)) {
      throw new ValueError(
        `${label}: two different messages are named "${name}"; give each model its own .meta({ id }).`,
      );
    }
    messages[name] = message;
  };
  const errorPayload = output.convert(HttpValidationErrorSchema);
  addMessage(INVALID_MESSAGE, errorPayload, "the AsyncAPI document");

  for (const route of app.websocketRoutes) {
    if (!route.includeInSchema) continue;
    const description = route.socketDescription;
    const inboundName = messageName(route.websocket.inbound as z.ZodType, `${route.name}_inbound`);
    const outboundName = messageName(route.websocket.outbound as z.ZodType, `${route.name}_outbound`);
    addMessage(inboundName, input.convert(route.websocket.inbound as z.ZodType), description.label);
    addMessage(outboundName, output.convert(route.websocket.outbound as z.ZodType), description.label);

    // The path a client sends, as the OpenAPI document's keys: `/salle à manger` is `/salle%20%C3%A0%20manger`.
    const channel: Record<string, unknown> = { address: wirePath(route.path) };
    if (route.summary !== undefined) channel.summary = route.summary;
    if (route.description !== undefined) channel.description = route.description;
    const upgrade = description.upgrade;
    const parameters = pathParameters(upgrade.byLocation.path);
    if (parameters !== undefined) channel.parameters = parameters;
    channel.messages = {
      [inboundName]: { $ref: `#/components/messages/${inboundName}` },
      [outboundName]: { $ref: `#/components/messages/${outboundName}` },
      [INVALID_MESSAGE]: { $ref: `#/components/messages/${INVALID_MESSAGE}` },
    };
    channel.bindings = { ws: wsBinding(upgrade.byLocation.query, upgrade.byLocation.header, input) };
    channels[route.name] = channel;

    const security: unknown[] = [];
    for (const { scheme, scopes } of upgrade.security) {
      const mirrored = toAsyncApiSecurityScheme(scheme.openapi, base);
      const known = securitySchemes[scheme.name];
      if (known !== undefined && !isDeepStrictEqual(known, mirrored)) {
        throw new ValueError(
          `Two security schemes are named "${scheme.name}"; give each scheme its own name.`,
        );
      }
      securitySchemes[scheme.name] = mirrored;
      // AsyncAPI names the scopes an operation needs on the scheme itself: a copy carries them.
      security.push(
        scopes.length === 0
          ? { $ref: `#/components/securitySchemes/${scheme.name}` }
          : { ...mirrored, scopes },
      );
    }
    const operation = (action: "receive" | "send", names: string[], summary: string) => {
      const result: Record<string, unknown> = {
        action,
        channel: { $ref: `#/channels/${route.name}` },
        summary,
        messages: names.map((name) => ({ $ref: `#/channels/${route.name}/messages/${name}` })),
      };
      if (route.tags.length > 0) result.tags = route.tags.map((name) => ({ name }));
      if (security.length > 0) result.security = security;
      return result;
    };
    operations[`${route.name}_receive`] = operation("receive", [inboundName], "Messages a client sends");
    operations[`${route.name}_send`] = operation(
      "send",
      [outboundName, INVALID_MESSAGE],
      "Messages the server sends, and the error for an invalid message",
    );
  }

  const info: Record<string, unknown> = {
    title: settings?.info.title ?? DEFAULT_INFO.title,
    version: settings?.info.version ?? DEFAULT_INFO.version,
  };
  if (settings?.info.description !== undefined) info.description = settings.info.description;
  const components: Record<string, unknown> = {};
  const schemas = mergeComponents(input, output);
  if (Object.keys(schemas).length > 0) components.schemas = schemas;
  components.messages = sortedKeys(messages);
  if (Object.keys(securitySchemes).length > 0) components.securitySchemes = sortedKeys(securitySchemes);
  const servers = serversOf(settings?.servers);
  return {
    asyncapi: "3.0.0",
    info,
    ...(servers === undefined ? {} : { servers }),
    defaultContentType: "application/json",
    channels,
    operations,
    components,
  };
}

/** The OpenAPI servers as WebSocket servers: `https://api.example.com/v1` is `wss`, host, `/v1`. */
function serversOf(servers: OpenApiSettings["servers"]): Record<string, unknown> | undefined {
  const result: Record<string, unknown> = {};
  servers?.forEach(({ url, description }, index) => {
    if (!URL.canParse(url)) return;
    const parsed = new URL(url);
    const server: Record<string, unknown> = {
      host: parsed.host,
      protocol: parsed.protocol === "https:" || parsed.protocol === "wss:" ? "wss" : "ws",
    };
    if (parsed.pathname !== "/") server.pathname = parsed.pathname.replace(/\/$/, "");
    if (description !== undefined) server.description = description;
    result[index === 0 ? "default" : `server${index + 1}`] = server;
  });
  return Object.keys(result).length === 0 ? undefined : result;
}

/** A model named with `.meta({ id })` gives its message that name; else the route's name does. */
function messageName(model: z.ZodType, fallback: string): string {
  const meta = (model as { meta?: () => Record<string, unknown> | undefined }).meta?.();
  return typeof meta?.id === "string" ? meta.id : fallback;
}

/** One channel parameter a placeholder: a path model reads several, one by each of its fields. */
function pathParameters(params: readonly ParamDescription[]): Record<string, unknown> | undefined {
  if (params.length === 0) return undefined;
  const result: Record<string, unknown> = {};
  for (const param of params) {
    for (const field of param.fields) {
      // A scalar's marker options are on its schema's meta, as a model field's own description is.
      const description = field.schema.description;
      result[field.wireName] = description === undefined ? {} : { description };
    }
  }
  return result;
}

/** The ws binding (0.1.0): the upgrade's query parameters and headers, as JSON Schema objects. */
function wsBinding(
  query: readonly ParamDescription[],
  headers: readonly ParamDescription[],
  input: SchemaConverter,
): Record<string, unknown> {
  const binding: Record<string, unknown> = { method: "GET" };
  const queryObject = objectOf(query, input);
  if (queryObject !== undefined) binding.query = queryObject;
  const headerObject = objectOf(headers, input);
  if (headerObject !== undefined) binding.headers = headerObject;
  binding.bindingVersion = "0.1.0";
  return binding;
}

function objectOf(params: readonly ParamDescription[], input: SchemaConverter): JsonSchema | undefined {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const param of params) {
    for (const field of param.fields) {
      properties[field.documentedName] = input.convert(field.schema);
      if (field.required && param.required) required.push(field.documentedName);
    }
  }
  if (Object.keys(properties).length === 0) return undefined;
  return required.length === 0 ? { type: "object", properties } : { type: "object", properties, required };
}

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key]!]),
  );
}
