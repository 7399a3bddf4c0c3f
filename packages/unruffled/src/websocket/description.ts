import type { z } from "zod";
import type { OriginCheck } from "../middleware/cors-origins.ts";
import type { EndpointDescription } from "../route/description.ts";
import type { ResponseSerializer } from "../route/serializer/response-serializers.ts";
import type { BackpressurePolicy, InvalidMessagePolicy, WebSocketDefinition } from "./declare.ts";

/**
 * A WebSocket route analysed once, when the app is built: its upgrade request's parameters as an
 * endpoint's (read by the same resolution code), its compiled message models, and its settings.
 */
export interface WebSocketDescription {
  websocket: WebSocketDefinition;
  /** `websocket "chat" (GET /chat/{room})`, for messages. */
  label: string;
  /** The upgrade request's parameters, dependencies and security, as an endpoint's description. */
  upgrade: EndpointDescription;
  /** Validates each inbound message, compiled by Zod. */
  inbound: z.ZodType;
  /** Whether `inbound` may pass on a number no number schema checks (`z.unknown()`): then `1e400` is looked for. */
  inboundUncheckedNumbers: boolean;
  /** Writes each outbound message through its model: only declared fields leave. */
  outbound: ResponseSerializer;
  /**
   * How `send()` and `publish()` write a message: `outbound.writeChecked` (Zod checks every rule
   * first) under `RESPONSES.validate: "strict"`, else `outbound.write` (each value's kind only).
   */
  writeOutbound: (message: unknown) => string;
  onInvalid: InvalidMessagePolicy;
  maxPayload: number;
  highWaterMark: number;
  lowWaterMark: number;
  onBackpressure: BackpressurePolicy;
  pingInterval: number;
  /** Which `Origin` may open the socket; undefined: the request's own origin (its `Host`). */
  allowsOrigin: OriginCheck | "*" | undefined;
}
