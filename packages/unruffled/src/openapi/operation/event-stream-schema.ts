import type { JsonSchema } from "../types.ts";

/** The media type of server-sent events. */
export const EVENT_STREAM = "text/event-stream";

/**
 * The schema of one server-sent event whose `data` is the model's JSON: what OpenAPI 3.2 calls the
 * `itemSchema` of a `text/event-stream` answer, given as its `schema` in this 3.1 document.
 *
 * @example eventSchema({ $ref: "#/components/schemas/SeatCount" }).properties.data // { $ref: … }
 */
export function eventSchema(data: JsonSchema): JsonSchema {
  return {
    type: "object",
    description: "One server-sent event; `data` is sent as JSON on its `data:` line.",
    properties: {
      data,
      event: { type: "string", description: "The event's type" },
      id: { type: "string", description: "The event's id, sent back as Last-Event-ID on reconnection" },
      retry: { type: "integer", minimum: 0, description: "Milliseconds to wait before reconnecting" },
    },
    required: ["data"],
  };
}
