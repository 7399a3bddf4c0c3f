export type { BodyCallback, BodySource } from "./body.ts";
export { NodeBodySource, WebBodySource } from "./body.ts";
export type { BodyLimits } from "./body-limits.ts";
export { DEFAULT_BODY_LIMITS } from "./body-limits.ts";
export type { ClientConnection, NodeResponseEvents } from "./client-signal.ts";
export type { CookieOptions } from "./cookies.ts";
export { parseCookies, serializeCookie } from "./cookies.ts";
export type { EventIterable, ServerSentEvent } from "./event-frames.ts";
export { eventFrame } from "./event-frames.ts";
export type { EventStreamInit } from "./event-stream-response.ts";
export { DEFAULT_HEARTBEAT_MS, EventStreamResponse } from "./event-stream-response.ts";
export { type FileFacts, FileResponse, type FileResponseInit } from "./file-response.ts";
export { RedirectResponse } from "./redirect-response.ts";
export type { AfterResponseTask, ClientAddress, PathValues, RawRequest } from "./request.ts";
export { HttpRequest } from "./request.ts";
export type { UrlSource } from "./request-target.ts";
export type {
  HeaderValue,
  JsonAnswer,
  JsonResponseConstructor,
  ResponseBody,
  ResponseInit,
  StatusInit,
  StatusKnown,
} from "./response.ts";
export { HtmlResponse, HttpResponse, JsonResponse, JsonResponseBase, PlainTextResponse } from "./response.ts";
export { ResponseDraft } from "./response-draft.ts";
export type { StreamChunk, StreamingInit, StreamSource } from "./streaming-response.ts";
export { StreamingBody, StreamingResponse } from "./streaming-response.ts";
