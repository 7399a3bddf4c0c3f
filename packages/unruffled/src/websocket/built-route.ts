import type { WebSocketDefinition } from "./declare.ts";
import type { WebSocketDescription } from "./description.ts";

/** A WebSocket route with its full path, its name and its analysis: what the app and the documents use. */
export interface BuiltWebSocketRoute {
  path: string;
  name: string;
  tags: string[];
  summary: string | undefined;
  description: string | undefined;
  deprecated: boolean;
  includeInSchema: boolean;
  websocket: WebSocketDefinition;
  socketDescription: WebSocketDescription;
}
