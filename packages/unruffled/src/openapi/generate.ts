import { RequestValidationError } from "../errors.ts";
import type { BuiltRoute } from "../route/analyse/build-routes.ts";
import type { BuiltWebhook } from "../route/analyse/build-webhooks.ts";
import { templatePath } from "../route/declare/path.ts";
import type { ResponseSpec } from "../route/declare/response-spec.ts";
import { mergeComponents } from "./merge-components.ts";
import { bodyResponses } from "./operation/body-responses.ts";
import { mergeOpenApiExtra } from "./operation/openapi-extra.ts";
import { toOpenApiParameters } from "./operation/parameters.ts";
import { rateLimitResponses } from "./operation/rate-limit-responses.ts";
import { toOpenApiRequestBody } from "./operation/request-body.ts";
import { type HandlerResponses, toOpenApiResponses } from "./operation/responses.ts";
import {
  type DocumentedErrors,
  operationSecurity,
  securityResponses,
  securitySchemesOf,
} from "./operation/security.ts";
import { AnonymousNames, SchemaConverter } from "./schema-converter.ts";
import type { OpenApiSettings } from "./settings.ts";
import type {
  CallbackObject,
  ComponentsObject,
  ExternalDocumentationObject,
  InfoObject,
  OpenApiDocument,
  OperationMethod,
  OperationObject,
  PathItemObject,
  TagObject,
} from "./types.ts";

/** An exception handler as the document sees it: what it answers. */
export interface DocumentedHandler {
  readonly responses: readonly ResponseSpec[];
}

/**
 * What the document is made from: the built routes, the `OPENAPI` settings, and the exception
 * handlers in force (the one registered for a class, and all of them). An `App` is one.
 */
export interface DocumentedApp {
  readonly routes: readonly BuiltRoute[];
  /** Requests the API sends to its users: documented under `webhooks`, never served. */
  readonly webhooks?: readonly BuiltWebhook[];
  readonly settings: { readonly OPENAPI?: OpenApiSettings | undefined };
  readonly exceptionHandlers: DocumentedErrors & {
    forClass(errorClass: Function): DocumentedHandler | undefined;
    all(): readonly DocumentedHandler[];
  };
}

export const DEFAULT_INFO: InfoObject = { title: "API", version: "0.1.0" };

const documents = new WeakMap<DocumentedApp, OpenApiDocument>();

/**
 * The OpenAPI 3.1 document of an app, generated from its analysed routes on the first call and
 * cached: every later call returns the same (frozen) object.
 *
 * @example
 * const document = generateOpenApi(app);
 * writeFileSync("openapi.json", JSON.stringify(document, null, 2));
 */
export function generateOpenApi(app: DocumentedApp): OpenApiDocument {
  let document = documents.get(app);
  if (document === undefined) {
    document = deepFreeze(buildDocument(app));
    documents.set(app, document);
  }
  return document;
}

function buildDocument(app: DocumentedApp): OpenApiDocument {
  const anonymous = new AnonymousNames();
  const input = new SchemaConverter("input", anonymous);
  const output = new SchemaConverter("output", anonymous);
  const handlerResponses = handlerResponsesOf(app);

  const paths: Record<string, PathItemObject> = {};
  for (const route of app.routes) {
    if (!route.includeInSchema) continue;
    for (const method of route.methods) {
      const operationId = route.operationIds[method];
      if (method === "HEAD" || operationId === undefined) continue;
      const template = templatePath(route.path);
      paths[template] ??= {};
      paths[template]![method.toLowerCase() as OperationMethod] = toOperation(
        route,
        operationId,
        handlerResponses,
        app.exceptionHandlers,
        input,
        output,
      );
    }
  }

  const webhooks: Record<string, PathItemObject> = {};
  for (const webhook of app.webhooks ?? []) {
    webhooks[webhook.name] ??= {};
    webhooks[webhook.name]![webhook.method.toLowerCase() as OperationMethod] = toOperation(
      webhook,
      webhook.operationId,
      handlerResponses,
      app.exceptionHandlers,
      input,
      output,
    );
  }

  const settings = app.settings.OPENAPI;
  const document = { openapi: "3.1.1", info: infoOf(settings?.info) } as OpenApiDocument;
  if (settings?.servers !== undefined) {
    document.servers = settings.servers.map(({ url, description }) =>
      description === undefined ? { url } : { url, description },
    );
  }
  document.paths = paths;
  if (Object.keys(webhooks).length > 0) document.webhooks = webhooks;
  const schemas = mergeComponents(input, output);
  const securitySchemes = securitySchemesOf([
    ...app.routes,
    ...(app.webhooks ?? []).map((webhook) => ({ ...webhook, includeInSchema: true })),
    ...app.routes.flatMap((route) =>
      (route.callbacks ?? []).map((callback) => ({ ...callback, includeInSchema: route.includeInSchema })),
    ),
  ]);
  const components: ComponentsObject = {};
  if (Object.keys(schemas).length > 0) components.schemas = schemas;
  if (Object.keys(securitySchemes).length > 0) components.securitySchemes = securitySchemes;
  if (Object.keys(components).length > 0) document.components = components;
  if (settings?.tags !== undefined) document.tags = settings.tags.map(tagOf);
  if (settings?.externalDocs !== undefined) document.externalDocs = externalDocsOf(settings.externalDocs);
  return document;
}

/**
 * What the app's exception handlers document: the validation handler's answers (for endpoints that
 * read parameters) and every other documented handler's (for all endpoints). The document and the
 * generated client both ask this, so both list the same error answers.
 */
export function handlerResponsesOf(app: DocumentedApp): HandlerResponses {
  // The app's own handlers decide what errors look like, so the document asks them.
  const validationHandler = app.exceptionHandlers.forClass(RequestValidationError);
  return {
    validation: validationHandler?.responses ?? [],
    always: app.exceptionHandlers
      .all()
      .filter((handler) => handler !== validationHandler)
      .flatMap((handler) => handler.responses),
  };
}

/** What an operation is written from: a route's, a webhook's or a callback's. */
type DocumentedOperation = Pick<
  BuiltRoute,
  "tags" | "summary" | "description" | "deprecated" | "endpointDescription" | "callbacks" | "openapiExtra"
>;

function toOperation(
  route: DocumentedOperation,
  operationId: string | undefined,
  handlerResponses: HandlerResponses,
  errors: DocumentedErrors,
  input: SchemaConverter,
  output: SchemaConverter,
): OperationObject {
  const description = route.endpointDescription;
  // Keys in the order a reader expects them; `responses` is set last.
  const operation = (operationId === undefined ? {} : { operationId }) as OperationObject;
  if (route.tags.length > 0) operation.tags = [...route.tags];
  if (route.summary !== undefined) operation.summary = route.summary;
  if (route.description !== undefined) operation.description = route.description;
  if (route.deprecated) operation.deprecated = true;
  const parameters = toOpenApiParameters(description, input);
  if (parameters.length > 0) operation.parameters = parameters;
  const requestBody = toOpenApiRequestBody(description, input);
  if (requestBody !== undefined) operation.requestBody = requestBody;
  const security = operationSecurity(description);
  operation.responses = toOpenApiResponses(
    description,
    {
      ...handlerResponses,
      security: security === undefined ? [] : securityResponses(description, errors),
      body: bodyResponses(description, errors),
      rateLimit: rateLimitResponses(description, errors),
    },
    output,
  );
  if (route.callbacks !== undefined) {
    // Keyed by name, then URL, then method, as OpenAPI's Callback Object; no operationId (see BuiltCallback).
    const callbacks: Record<string, CallbackObject> = {};
    for (const callback of route.callbacks) {
      callbacks[callback.name] ??= {};
      const byUrl = callbacks[callback.name]!;
      byUrl[callback.url] ??= {};
      const item = byUrl[callback.url]!;
      item[callback.method.toLowerCase() as OperationMethod] = toOperation(
        callback,
        undefined,
        handlerResponses,
        errors,
        input,
        output,
      );
    }
    operation.callbacks = callbacks;
  }
  if (security !== undefined) operation.security = security;
  if (route.openapiExtra !== undefined) {
    mergeOpenApiExtra(operation as unknown as Record<string, unknown>, route.openapiExtra, description.label);
  }
  return operation;
}

// The settings' objects are copied field by field, in the specification's order: the document holds
// what OpenAPI defines, not whatever else the settings object carries.
function infoOf(info: InfoObject | undefined): InfoObject {
  if (info === undefined) return { ...DEFAULT_INFO };
  const result: InfoObject = { title: info.title, version: info.version };
  if (info.summary !== undefined) result.summary = info.summary;
  if (info.description !== undefined) result.description = info.description;
  if (info.termsOfService !== undefined) result.termsOfService = info.termsOfService;
  if (info.contact !== undefined) result.contact = definedOnly(info.contact, ["name", "url", "email"]);
  if (info.license !== undefined) result.license = definedOnly(info.license, ["name", "identifier", "url"]);
  return result;
}

function tagOf(tag: TagObject): TagObject {
  const result = definedOnly(tag, ["name", "description"]);
  if (tag.externalDocs !== undefined) result.externalDocs = externalDocsOf(tag.externalDocs);
  return result;
}

function externalDocsOf(docs: ExternalDocumentationObject): ExternalDocumentationObject {
  return definedOnly(docs, ["url", "description"]);
}

function definedOnly<T extends object>(value: T, keys: readonly (keyof T)[]): T {
  const result = {} as T;
  for (const key of keys) if (value[key] !== undefined) result[key] = value[key];
  return result;
}

// The cached document is shared by every caller; freezing it keeps the served JSON and the object equal.
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
