// Declared with JsonResponse (unruffled/http), and named here too, where it was first.
export type { JsonAnswer } from "../http/response.ts";
export type { BuiltRoute } from "./analyse/build-routes.ts";
export { buildRoutes } from "./analyse/build-routes.ts";
export type { BuiltCallback, BuiltWebhook } from "./analyse/build-webhooks.ts";
export type {
  Dependency,
  DependencyConfig,
  DependencyScopeName,
  Resolved,
  ResolveStyle,
} from "./declare/dependency.ts";
export { dependency } from "./declare/dependency.ts";
export type {
  EndpointConfig,
  EndpointDefinition,
  ParamDeclaration,
  ParamDeclarations,
  ParamValue,
  ResolvedParams,
  Returns,
} from "./declare/endpoint.ts";
export { endpoint } from "./declare/endpoint.ts";
export type {
  DeclaredBody,
  DeclaredEventData,
  DeclaredJsonBody,
  HandlerResponse,
  UnmodelledResponse,
} from "./declare/handler-response.ts";
export type {
  DependencyLike,
  FieldOptions,
  FileOptions,
  JsonOptions,
  MarkerKind,
  Markers,
  SecurityOptions,
} from "./declare/markers.ts";
export { ContextParam, DependsParam, FileParam, Param, p, SecurityParam } from "./declare/markers.ts";
export type { OpenApiExtra } from "./declare/openapi-extra.ts";
export type { DependencyOverride, Overrides } from "./declare/overrides.ts";
export { overridesOf } from "./declare/overrides.ts";
export type {
  EndpointRouteOptions,
  GroupRouteOptions,
  HttpMethod,
  RouteDefinition,
  RouteDependency,
} from "./declare/path.ts";
export { path } from "./declare/path.ts";
export type { ResponseClass, ResponseSpecOptions } from "./declare/response-spec.ts";
export { ResponseSpec } from "./declare/response-spec.ts";
export type { SecurityScheme, SecuritySchemeObject } from "./declare/security-scheme.ts";
export { SecurityScopes } from "./declare/security-scheme.ts";
export type {
  CallbackDefinition,
  CallbackOptions,
  WebhookDefinition,
  WebhookOptions,
} from "./declare/webhook.ts";
export { callback, webhook } from "./declare/webhook.ts";
export type {
  BodyFormat,
  EndpointDescription,
  Location,
  ParamDescription,
  WireField,
} from "./description.ts";
export type { CompiledSerializer } from "./serializer/compile-serializer.ts";
export { compileSerializer } from "./serializer/compile-serializer.ts";
export type { ResponseSerializer, ResponseSerializers } from "./serializer/response-serializers.ts";
export { responseSerializersOf } from "./serializer/response-serializers.ts";
