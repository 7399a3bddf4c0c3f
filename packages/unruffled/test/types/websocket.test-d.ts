// Type tests for WebSocket routes: checked by `tsc` (npm run typecheck), never run.
import { createApp } from "unruffled";
import type { HttpRequest } from "unruffled/http";
import { dependency, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { type InboundOf, type OutboundOf, websocket } from "unruffled/websocket";
import { expectTypeOf } from "vitest";
import { z } from "zod";

const Inbound = z.discriminatedUnion("type", [
  z.object({ type: z.literal("say"), text: z.string() }),
  z.object({ type: z.literal("typing") }),
]);
const Outbound = z.discriminatedUnion("type", [
  z.object({ type: z.literal("said"), text: z.string(), at: z.int() }),
  z.object({ type: z.literal("left"), nick: z.string() }),
]);
const user = dependency({ resolve: () => ({ name: "ann" }) });

// The handler's parameters are typed from the markers, as an endpoint's; its socket from the models.
const chat = websocket({
  params: { room: p.Path(z.string()), page: p.Query(z.int(), { default: 1 }), user: p.Depends(user) },
  inbound: Inbound,
  outbound: Outbound,
  async handler(socket, params, request) {
    expectTypeOf(params.room).toEqualTypeOf<string>();
    expectTypeOf(params.page).toEqualTypeOf<number>();
    expectTypeOf(params.user).toEqualTypeOf<{ name: string }>();
    expectTypeOf(request).toEqualTypeOf<HttpRequest>();
    for await (const message of socket) {
      // Iterating yields inbound messages only.
      expectTypeOf(message).toEqualTypeOf<{ type: "say"; text: string } | { type: "typing" }>();
      if (message.type === "say") expectTypeOf(message.text).toEqualTypeOf<string>();
    }
    // send() takes outbound messages only.
    expectTypeOf(await socket.send({ type: "said", text: "hi", at: 1 })).toEqualTypeOf<boolean>();
    await socket.send({ type: "left", nick: "ann" });
    // @ts-expect-error an inbound message is not an outbound one
    await socket.send({ type: "say", text: "hi" });
    // @ts-expect-error a field of the wrong type
    await socket.send({ type: "said", text: 1, at: 1 });
  },
});

expectTypeOf<InboundOf<typeof chat>>().toEqualTypeOf<{ type: "say"; text: string } | { type: "typing" }>();
expectTypeOf<OutboundOf<typeof chat>>().toEqualTypeOf<
  { type: "said"; text: string; at: number } | { type: "left"; nick: string }
>();

path("/chat/{room}", { websocket: chat });
// @ts-expect-error a WebSocket route takes no middleware
path("/chat/{room}", { websocket: chat, middleware: [] });

const client = testClient(createApp({ routes: [path("/chat/{room}", { websocket: chat })] }));

async function typedTestClient() {
  const socket = await client.websocket(chat, { room: "lobby" });
  await socket.send({ type: "typing" });
  // @ts-expect-error the test client sends inbound messages only
  await socket.send({ type: "left", nick: "ann" });
  const message = await socket.receive();
  expectTypeOf(message).toEqualTypeOf<
    { type: "said"; text: string; at: number } | { type: "left"; nick: string }
  >();
  for await (const each of socket) expectTypeOf(each).toEqualTypeOf(message);
  // @ts-expect-error the path parameter is required
  await client.websocket(chat, {});
  // @ts-expect-error a parameter of the wrong type
  await client.websocket(chat, { room: "lobby", page: "two" });
}
void typedTestClient;
