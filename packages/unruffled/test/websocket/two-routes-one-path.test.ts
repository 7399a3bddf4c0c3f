import { createApp, ValueError } from "unruffled";
import { path } from "unruffled/route";
import { websocket } from "unruffled/websocket";
import { expect, it } from "vitest";
import { z } from "zod";

const noop = z.object({ type: z.literal("noop") });
const socket = () => websocket({ inbound: noop, outbound: noop, handler: async () => {} });

it("refuses two WebSocket routes at one path with a ValueError naming both", () => {
  let error: unknown;
  try {
    createApp({
      routes: [
        path("/chat", { websocket: socket(), name: "chat" }),
        path("/chat", { websocket: socket(), name: "talk" }),
      ],
    });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(ValueError);
  expect((error as Error).message).toBe(
    'The WebSocket routes "chat" and "talk" both answer /chat; serve a path from one WebSocket route: change the path of one of them.',
  );
});
