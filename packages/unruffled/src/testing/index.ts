export type { CallParams, ParamInput } from "../route/declare/call-params.ts";
export type { CheckedOverrides } from "../route/declare/overrides.ts";
export type { CallResponse, DocumentedBody, ValidationErrorBody } from "./call-types.ts";
export type { BodyOptions, QueryInput, RequestHeaders, RequestOptions } from "./encode-request.ts";
export type { FilesInput, FormInput, FormValue, TestFile } from "./multipart-body.ts";
export type { ReceivedEvent } from "./read-events.ts";
export { readEvents } from "./read-events.ts";
export type { RunningServer, StartServerOptions } from "./start-server.ts";
export { startServer } from "./start-server.ts";
export type { CallOptions, TestClientOptions } from "./test-client.ts";
export { TestClient, testClient } from "./test-client.ts";
export { TestResponse } from "./test-response.ts";
export type {
  AnyWebSocket,
  TestWebSocketOf,
  WebSocketArguments,
  WebSocketOptions,
} from "./websocket-client.ts";
export { TestWebSocket, WebSocketClosedError, WebSocketRefused } from "./websocket-client.ts";
