import type { z } from "zod";
import type { OperationPlan, ParamPlan } from "../client/operation-plan.ts";
import type { SocketPlan } from "../client/websocket.ts";
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValueError } from "../errors.ts";
import { type DocumentedApp, handlerResponsesOf } from "../openapi/generate.ts";
import { mergeComponents } from "../openapi/merge-components.ts";
import { HttpErrorSchema } from "../openapi/operation/error-schemas.ts";
import { EVENT_STREAM } from "../openapi/operation/event-stream-schema.ts";
import { toOpenApiResponses } from "../openapi/operation/responses.ts";
import { operationSecurity, securityResponses } from "../openapi/operation/security.ts";
import { AnonymousNames, SchemaConverter } from "../openapi/schema-converter.ts";
import type { JsonSchema, ResponseObject } from "../openapi/types.ts";
import { type BuiltRoute, derivedName } from "../route/analyse/build-routes.ts";
import { ResponseSpec } from "../route/declare/response-spec.ts";
import type { ParamDescription } from "../route/description.ts";
import type { BuiltWebSocketRoute } from "../websocket/built-route.ts";

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

// What the default handlers answer when a body is too large or of another type; an app's own
// handlers for these errors say what they answer instead.
const TOO_LARGE = [
  new ResponseSpec({ code: "413", model: HttpErrorSchema, description: "Content Too Large" }),
];
const UNSUPPORTED = [
  new ResponseSpec({ code: "415", model: HttpErrorSchema, description: "Unsupported Media Type" }),
];

/**
 * Reads an app's documented routes the way the OpenAPI document does (the same converters, the
 * same handler answers, the same component names), adding the answers the framework gives that
 * the document leaves to the reader: 413 and 415 for an operation that reads a body.
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
        always:
          description.bodyFormat === undefined
            ? handlerResponses.always
            : [
                ...handlerResponses.always,
                ...app.exceptionHandlers.responsesFor(PayloadTooLargeError, TOO_LARGE),
                ...app.exceptionHandlers.responsesFor(UnsupportedMediaTypeError, UNSUPPORTED),
              ],
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
  return { name: param.name, required: param.required, type: input.convert(param.schema) };
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
