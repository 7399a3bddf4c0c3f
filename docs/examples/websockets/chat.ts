import { createApp } from "unruffled";
import { dependency, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { publish, websocket } from "unruffled/websocket";
import { z } from "zod";

// #region models
export const ChatIn = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("say"), text: z.string().min(1).max(500) }),
    z.object({ type: z.literal("typing") }),
  ])
  .meta({ id: "ChatIn" });

export const ChatOut = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("said"), room: z.string(), user: z.string(), text: z.string() }),
    z.object({ type: z.literal("typing"), user: z.string() }),
  ])
  .meta({ id: "ChatOut" });
// #endregion

// #region route
const bearer = httpBearer({
  verify: (token) => (token.startsWith("user-") ? { name: token.slice("user-".length) } : null),
});

/** Who is in which room: entered before the handshake, left once the socket closes, however it closes. */
const presence = dependency({
  params: { room: p.Path(z.string()), user: p.Security(bearer) },
  async *resolve(_request, { room, user }) {
    online.add(`${room}/${user.name}`);
    try {
      yield { room, user: user.name };
    } finally {
      online.delete(`${room}/${user.name}`);
    }
  },
});
export const online = new Set<string>();

export const chat = websocket({
  params: { session: p.Depends(presence) },
  inbound: ChatIn,
  outbound: ChatOut,
  async handler(socket, { session: { room, user } }) {
    await socket.subscribe(`room:${room}`);
    for await (const message of socket) {
      const out =
        message.type === "say"
          ? { type: "said" as const, room, user, text: message.text }
          : { type: "typing" as const, user };
      await publish(app, chat, `room:${room}`, out);
    }
  },
});

export const app = createApp({
  settings: { OPENAPI: { info: { title: "Chat", version: "1.0.0" }, allow_public: true } },
  routes: [path("/chat/{room}", { websocket: chat, name: "chat" })],
});
// #endregion
