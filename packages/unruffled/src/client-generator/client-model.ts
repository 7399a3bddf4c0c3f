import type { z } from "zod";
import type { OperationPlan, ParamPlan } from "../client/operation-plan.ts";
import type { SocketPlan } from "../client/websocket.ts";
import { ValueError } from "../errors.ts";
import { type DocumentedApp, handlerResponsesOf } from "../openapi/generate.ts";
import { mergeComponents } from "../openapi/merge-components.ts";
import { bodyResponses } from "../openapi/operation/body-responses.ts";
import { EVENT_STREAM } from "../openapi/operation/event-stream-schema.ts";
import { rateLimitResponses } from "../openapi/operation/rate-limit-responses.ts";
import { fieldsWithoutNull } from "../openapi/operation/request-body.ts";
import { toOpenApiResponses } from "../openapi/operation/responses.ts";
import { operationSecurity, securityResponses } from "../openapi/operation/security.ts";
import { AnonymousNames, SchemaConverter, withoutNull } from "../openapi/schema-converter.ts";
import type { JsonSchema, ResponseObject } from "../openapi/types.ts";
import { type BuiltRoute, derivedName } from "../route/analyse/build-routes.ts";
import type { ParamDescription } from "../route/description.ts";
import type { BuiltWebSocketRoute } from "../websocket/built-route.ts";

/**
 * A key the client's input schemas carry on a date-time string: a call may give a `Date` there, which
 * the run time sends as its ISO string (JSON.stringify, or `toISOString()` in a query, header or
 * form), and the server reads into a Date again. Never in the document.
 */
export const INPUT_DATE = "x-unruffled-input-date";

/** One parameter of a call, as its type is printed. */
export interface ParamModel {
  name: string;
  required: boolean;
  /** The JSON Schema of what the caller gives, or a file (`Blob`) or files. */
  type: JsonSchema | "file" | "files";
}

/** One answer of an operation: a status, a media type (null: no body) and its schema. */
export interface AnswerModel {
  status: number;
  mediaType: string | null;
  /** The body's schema; for an event stream, its events' data. */
  schema: JsonSchema | undefined;
}

/** One member of the client: a route, its call's parameters and answers, and its run-time plan. */
export interface OperationModel {
  member: string;
  /** True when the route has no name, and the member is named by its method and path. */
  derivedName: boolean;
  route: BuiltRoute;
  method: string;
  params: ParamModel[];
  answers: AnswerModel[];
  plan: OperationPlan;
}

/** One WebSocket route of the client: its parameters, its two message schemas, and its run-time plan. */
export interface SocketModel {
  member: string;
  route: BuiltWebSocketRoute;
  params: ParamModel[];
  /** What the client sends (the inbound model, as input). */
  inbound: JsonSchema;
  /** What the client receives (the outbound model, as output). */
  outbound: JsonSchema;
  plan: SocketPlan;
}

/** What a client module is printed from: the models (named schemas), the operations and the sockets. */
export interface ClientModel {
  title: string;
  version: string;
  components: Record<string, JsonSchema>;
  operations: OperationModel[];
  sockets: SocketModel[];
}

/**
 * Reads an app's documented routes the way the OpenAPI document does (the same converters, the
 * same handler answers, the same component names), so the client types the statuses the document
 * lists, and no other.
 *
 * @example clientModel(app).operations.map((operation) => operation.member) // ["hello", "list_students", …]
 */
export function clientModel(
  app: DocumentedApp & { readonly websocketRoutes?: readonly BuiltWebSocketRoute[] },
): ClientModel {
  const anonymous = new AnonymousNames();
  const input = new SchemaConverter("input", anonymous);
  const output = new SchemaConverter("output", anonymous);
  const handlerResponses = handlerResponsesOf(app);
  const routes = app.routes.filter(
    (route) => route.includeInSchema && route.methods.some((method) => method !== "HEAD"),
  );
  refuseSharedNames(routes);
  const operations = routes.map((route) => {
    const description = route.endpointDescription;
    const method = route.methods.find((candidate) => candidate !== "HEAD")!;
    const security = operationSecurity(description);
    const responses = toOpenApiResponses(
      description,
      {
        ...handlerResponses,
        security: security === undefined ? [] : securityResponses(description, app.exceptionHandlers),
        body: bodyResponses(description, app.exceptionHandlers),
        rateLimit: rateLimitResponses(description, app.exceptionHandlers),
      },
      output,
    );
    const answers = answersOf(responses);
    return {
      member: route.name,
      derivedName: route.name === derivedName(route.methods[0]!, route.path),
      route,
      method,
      params: description.params.map((param) => paramModel(param, input)),
      answers,
      plan: planOf(route, method, answers),
    } satisfies OperationModel;
  });
  // Before the merge: a model with a date reads differently on the two sides, Name-Input and -Output.
  for (const schema of input.components.values()) markInputDates(schema);
  const sockets = (app.websocketRoutes ?? [])
    .filter((route) => route.includeInSchema)
    .map((route): SocketModel => {
      const params = route.socketDescription.upgrade.params;
      return {
        member: route.name,
        route,
        params: params.map((param) => paramModel(param, input)),
        inbound: input.convert(route.websocket.inbound as z.ZodType),
        outbound: output.convert(route.websocket.outbound as z.ZodType),
        plan: { path: route.path, params: params.map(paramPlan) },
      };
    });
  const settings = app.settings.OPENAPI?.info;
  return {
    title: settings?.title ?? "API",
    version: settings?.version ?? "0.1.0",
    components: mergeComponents(input, output),
    operations,
    sockets,
  };
}

/** A client member per route name: two routes with one name would be one member. */
function refuseSharedNames(routes: readonly BuiltRoute[]): void {
  const byName = new Map<string, BuiltRoute[]>();
  for (const route of routes) byName.set(route.name, [...(byName.get(route.name) ?? []), route]);
  const shared = [...byName].filter(([, named]) => named.length > 1);
  if (shared.length === 0) return;
  const lines = shared.map(
    ([name, named]) =>
      `"${name}": ${named.map((route) => `${route.methods.join(", ")} ${route.path}`).join(" and ")}`,
  );
  throw new ValueError(
    `A client has one member per route name, and these routes share a name: ${lines.join("; ")}. Give each route its own name (path(..., { name })).`,
  );
}

function paramModel(param: ParamDescription, input: SchemaConverter): ParamModel {
  if (param.marker === "file") {
    return {
      name: param.name,
      required: param.required,
      type: param.shape === "file-list" ? "files" : "file",
    };
  }
  const schema = input.convert(param.schema);
  if (param.marker !== "json") {
    // Text (all but a JSON body) has no null: typed as the document says, without it.
    fieldsWithoutNull(withoutNull(schema));
    // A model read from text reads its declared names, and the call sends no other.
    if (param.shape === "model" && schema.properties !== undefined) delete schema.additionalProperties;
  }
  return { name: param.name, required: param.required, type: markInputDates(schema) };
}

/** Keywords whose value is data, never a schema: a date-time string there is left alone. */
const DATA_KEYWORDS = new Set(["default", "examples", "example", "const", "enum"]);

/** Marks every date-time string of an input schema with `INPUT_DATE`, in place; returns the schema. */
function markInputDates(schema: JsonSchema): JsonSchema {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const node = value as JsonSchema;
    if (node.type === "string" && node.format === "date-time") node[INPUT_DATE] = true;
    for (const [key, child] of Object.entries(node)) if (!DATA_KEYWORDS.has(key)) visit(child);
  };
  visit(schema);
  return schema;
}

function answersOf(responses: Record<string, ResponseObject>): AnswerModel[] {
  const answers: AnswerModel[] = [];
  for (const [code, response] of Object.entries(responses)) {
    // Ranges and `default` are not statuses a call can branch on: such answers are undocumented.
    if (!/^[1-5]\d\d$/.test(code)) continue;
    const status = Number(code);
    const content = Object.entries(response.content ?? {});
    if (content.length === 0) answers.push({ status, mediaType: null, schema: undefined });
    for (const [mediaType, media] of content) {
      const schema = media.schema as JsonSchema | undefined;
      const data = mediaType === EVENT_STREAM ? (schema?.properties as JsonSchema | undefined)?.data : schema;
      answers.push({ status, mediaType, schema: data as JsonSchema | undefined });
    }
  }
  return answers;
}

function planOf(route: BuiltRoute, method: string, answers: readonly AnswerModel[]): OperationPlan {
  const description = route.endpointDescription;
  const statuses: Record<string, string[]> = {};
  for (const { status, mediaType } of answers) {
    const media = statuses[String(status)] ?? [];
    if (mediaType !== null) media.push(mediaType);
    statuses[String(status)] = media;
  }
  const plan: { -readonly [K in keyof OperationPlan]: OperationPlan[K] } = {
    method,
    path: route.path,
    params: description.params.map(paramPlan),
    answers: statuses,
  };
  if (description.bodyFormat !== undefined) plan.body = description.bodyFormat;
  return plan;
}

function paramPlan(param: ParamDescription): ParamPlan {
  const plan: { -readonly [K in keyof ParamPlan]: ParamPlan[K] } = { name: param.name, in: param.location };
  if (param.wholeBody) plan.whole = true;
  else if (param.shape === "model") {
    plan.fields = Object.fromEntries(param.fields.map((field) => [field.key!, field.wireName]));
  } else plan.wire = param.fields[0]!.wireName;
  if (param.marker === "file") plan.file = true;
  return plan;
}
