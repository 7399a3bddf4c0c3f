export { type AsyncApiApp, type AsyncApiDocument, generateAsyncApi } from "./asyncapi/generate.ts";
export type { BuiltWebSocketRoute } from "./built-route.ts";
export type {
  BackpressurePolicy,
  InboundOf,
  InvalidMessagePolicy,
  OutboundOf,
  WebSocketConfig,
  WebSocketDefinition,
} from "./declare.ts";
export { websocket } from "./declare.ts";
export type { WebSocketDescription } from "./description.ts";
export { type PublishingApp, publish } from "./publish.ts";
export type { ServerWebSocket, WebSocketClose } from "./server-socket-types.ts";
