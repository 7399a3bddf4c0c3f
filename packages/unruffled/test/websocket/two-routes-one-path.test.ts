// docs/endpoints-and-routes.md, "The app": two routes at one path are refused when the app is built,
// as the declaration error they are (a ValueError, which `unruffled serve` tells in one line).
import { createApp, ValueError } from "unruffled";
import { path } from "unruffled/route";
import { websocket } from "unruffled/websocket";
import { expect, it } from "vitest";
import { z } from "zod";

const noop = z.object({ type: z.literal("noop") });
const socket = () => websocket({ inbound: noop, outbound: noop, origins: "*", handler: async () => {} });

it("refuses two WebSocket routes at one path with a ValueError, when the app is built", () => {
  let thrown: unknown;
  try {
    createApp({
      routes: [
        path("/live", { websocket: socket(), name: "live" }),
        path("/live", { websocket: socket(), name: "again" }),
      ],
    });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ValueError);
  expect((thrown as Error).message).toBe("Two WebSocket routes answer /live; give each route its own path.");
});
