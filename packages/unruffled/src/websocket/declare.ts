import type { z } from "zod";
import { ValueError } from "../errors.ts";
import type { HttpRequest } from "../http/request.ts";
import type { CorsOrigins } from "../middleware/cors-origins.ts";
import type { ParamDeclarations, ResolvedParams } from "../route/declare/endpoint.ts";
import type { ModelInput, ModelOutput } from "../route/declare/model-types.ts";
import type { RoutedWebSocket } from "../route/declare/path.ts";
import type { ServerWebSocket } from "./server-socket-types.ts";

/** What a socket does when its peer reads too slowly and its buffer passes the high-water mark. */
export type BackpressurePolicy = "wait" | "drop" | "close";

/** What a socket does with an inbound message its model refuses: `"close"` (1007) or `"skip"`. */
export type InvalidMessagePolicy = "close" | "skip";

export interface WebSocketConfig<
  P extends ParamDeclarations,
  In extends z.core.SomeType,
  Out extends z.core.SomeType,
  R extends HttpRequest,
> {
  /** A name for messages and the default AsyncAPI operation ids, when no route name is given. */
  name?: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  tags?: string[];
  /** Read from the upgrade request, as an endpoint's are: path, query, header, cookie, dependencies, security. */
  params?: P;
  /** The model of each message a client sends (usually a discriminated union). */
  inbound: In;
  /** The model of each message the server sends; what it does not declare never leaves. */
  outbound: Out;
  /**
   * Runs once the handshake succeeded; the socket closes (1000) when it returns, 1011 when it
   * throws. Iterate the socket for inbound messages; `send()` takes outbound ones.
   */
  handler(
    socket: ServerWebSocket<ModelOutput<In>, ModelInput<Out>>,
    params: ResolvedParams<P>,
    request: R,
  ): void | Promise<void>;
  /** What an inbound message its model refuses does: `"close"` (default: an error message, then 1007) or `"skip"`. */
  onInvalid?: InvalidMessagePolicy;
  /** The largest inbound message in bytes (default 1 MiB); a larger one closes the socket with 1009. */
  maxPayload?: number;
  /** Bytes a socket may buffer for a slow peer before `onBackpressure` applies (default 1 MiB). */
  highWaterMark?: number;
  /** A waiting `send()` resolves once the buffer is below this many bytes (default a quarter of the high mark). */
  lowWaterMark?: number;
  /**
   * Past the high-water mark: `"wait"` (default) makes `send()` resolve once the buffer drains below the
   * low mark; `"drop"` drops the message (`send()` resolves to false); `"close"` closes with 1013.
   */
  onBackpressure?: BackpressurePolicy;
  /** Milliseconds between pings; a peer that did not answer the last one is cut (default 30 s; 0: never). */
  pingInterval?: number;
  /**
   * Pages that may open the socket (`Origin`): a list, a function, or `"*"`. Default: the page of the
   * same origin as the request's `Host`, and clients that send no `Origin` (not browsers).
   */
  origins?: CorsOrigins;
}

/** A WebSocket route as declared; `path()` routes it, and it is analysed when the app is built. */
export interface WebSocketDefinition<
  P extends ParamDeclarations = ParamDeclarations,
  In extends z.core.SomeType = z.core.SomeType,
  Out extends z.core.SomeType = z.core.SomeType,
  R extends HttpRequest = HttpRequest,
> extends RoutedWebSocket {
  // kind, name, summary, description, deprecated and tags: what the route tree reads (RoutedWebSocket).
  readonly params?: P;
  readonly inbound: In;
  readonly outbound: Out;
  readonly handler: WebSocketConfig<P, In, Out, R>["handler"];
  readonly onInvalid?: InvalidMessagePolicy;
  readonly maxPayload?: number;
  readonly highWaterMark?: number;
  readonly lowWaterMark?: number;
  readonly onBackpressure?: BackpressurePolicy;
  readonly pingInterval?: number;
  readonly origins?: CorsOrigins;
}

/** The type of the messages a client sends to a WebSocket route. */
export type InboundOf<W> = W extends WebSocketDefinition<any, infer In, any, any> ? ModelOutput<In> : never;
/** The type of the messages a WebSocket route sends. */
export type OutboundOf<W> =
  W extends WebSocketDefinition<any, any, infer Out, any> ? ModelOutput<Out> : never;

/**
 * Declares a WebSocket route: parameters read from the upgrade request with the endpoint markers
 * (resolved, and authenticated, before the handshake), an inbound and an outbound model, and the
 * handler. Route it with `path("/chat/{room}", { websocket: chat })`.
 *
 * @example
 * export const chat = websocket({
 *   params: { room: p.Path(z.string()), user: p.Security(bearer) },
 *   inbound: z.discriminatedUnion("type", [z.object({ type: z.literal("say"), text: z.string() })]),
 *   outbound: z.object({ type: z.literal("said"), text: z.string() }),
 *   async handler(socket, { room, user }) {
 *     for await (const message of socket) await socket.send({ type: "said", text: message.text });
 *   },
 * });
 */
export function websocket<
  const P extends ParamDeclarations = {},
  In extends z.core.SomeType = z.core.SomeType,
  Out extends z.core.SomeType = z.core.SomeType,
  R extends HttpRequest = HttpRequest,
>(config: WebSocketConfig<P, In, Out, R>): WebSocketDefinition<P, In, Out, R> {
  if (config === null || typeof config !== "object" || typeof config.handler !== "function") {
    throw new ValueError("websocket({ ... }) takes an object with inbound, outbound and a handler function.");
  }
  return Object.freeze({ ...config, kind: "websocket" as const });
}
