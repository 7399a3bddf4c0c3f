export type { BuiltRoute } from "./build-routes.ts";
export { buildRoutes } from "./build-routes.ts";
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
export type { FieldOptions, FileOptions, MarkerKind, ResponseClass, ResponseSpecOptions } from "./params.ts";
export { FileParam, Param, p, ResponseSpec } from "./params.ts";
export type { EndpointRouteOptions, GroupRouteOptions, HttpMethod, RouteDefinition } from "./path.ts";
export { path } from "./path.ts";
