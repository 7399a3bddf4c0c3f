export type { BuiltRoute } from "./build-routes.ts";
export { buildRoutes } from "./build-routes.ts";
export type { Dependency, DependencyConfig, Resolved, ResolveStyle } from "./dependency.ts";
export { dependency } from "./dependency.ts";
export type {
  BodyFormat,
  EndpointDescription,
  Location,
  ParamDescription,
  WireField,
} from "./description.ts";
export type {
  EndpointConfig,
  EndpointDefinition,
  ParamDeclaration,
  ParamDeclarations,
  ParamValue,
  ResolvedParams,
  Returns,
} from "./endpoint.ts";
export { endpoint } from "./endpoint.ts";
export type {
  DeclaredBody,
  DeclaredEventData,
  DeclaredJsonBody,
  HandlerResponse,
  UnmodelledResponse,
} from "./handler-response.ts";
export type { DependencyLike, FieldOptions, FileOptions, MarkerKind, SecurityOptions } from "./markers.ts";
export { DependsParam, FileParam, Param, p, SecurityParam } from "./markers.ts";
export type { DependencyOverride, Overrides } from "./overrides.ts";
export { overridesOf } from "./overrides.ts";
export type {
  EndpointRouteOptions,
  GroupRouteOptions,
  HttpMethod,
  RouteDefinition,
  RouteDependency,
} from "./path.ts";
export { path } from "./path.ts";
export type { ResponseClass, ResponseSpecOptions } from "./response-spec.ts";
export { ResponseSpec } from "./response-spec.ts";
export type { SecurityScheme, SecuritySchemeObject } from "./security-scheme.ts";
export type { CompiledSerializer } from "./serializer/compile-serializer.ts";
export { compileSerializer } from "./serializer/compile-serializer.ts";
export type { ResponseSerializer, ResponseSerializers } from "./serializer/response-serializers.ts";
export { responseSerializersOf } from "./serializer/response-serializers.ts";
