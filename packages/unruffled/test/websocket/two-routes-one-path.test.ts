// docs/endpoints-and-routes.md, "The app": two routes at one path are refused when the app is built,
// as the declaration error they are (a ValueError, which `unruffled serve` tells in one line).
import { createApp, type Middleware, ValueError } from "unruffled";
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

// docs/websockets.md, "Declaring a route": a WebSocket route takes no middleware (its type says so;
// an app written in JavaScript is told when the route is made).
const stamp: Middleware = async (request, next) => next(request);

it("refuses middleware on a WebSocket route with a ValueError that names both ways to check the upgrade", () => {
  const declaring = () => path("/live", { websocket: socket(), middleware: [stamp] } as never);
  expect(declaring).toThrow(ValueError);
  expect(declaring).toThrow(
    "path(\"/live\"): a WebSocket route takes no middleware; check the upgrade with its dependencies, or with a group's or the app's middleware that carries guardUpgrade.",
  );
});

it("names the WebSocket route, not cors(), in a refusal of its origins", () => {
  const declared = (origins: unknown) => () =>
    createApp({
      routes: [
        path("/chat", {
          websocket: websocket({
            inbound: z.string(),
            outbound: z.string(),
            origins: origins as never,
            handler: async () => {},
          }),
        }),
      ],
    });
  expect(declared(42)).toThrow(
    new ValueError(
      'websocket "websocket_chat" (GET /chat): origins must be "*", a list of origins, or a function (origin, request) => boolean.',
    ),
  );
  expect(declared(["https://a.example/x"])).toThrow(
    new ValueError(
      'websocket "websocket_chat" (GET /chat): "https://a.example/x" is not an origin: write scheme://host[:port], without a path; did you mean "https://a.example"?',
    ),
  );
});

// docs/parameters.md, "The rest of the path": a {name:path} placeholder is an HTTP route's.
it("refuses a {name:path} placeholder on a WebSocket route with a ValueError, when the app is built", () => {
  expect(() => createApp({ routes: [path("/live/{room:path}", { websocket: socket() })] })).toThrow(
    new ValueError(
      'The WebSocket route "/live/{room:path}" has a {name:path} placeholder; a WebSocket route takes {name} placeholders only.',
    ),
  );
});
