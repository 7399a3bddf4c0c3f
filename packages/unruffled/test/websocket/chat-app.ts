// A chat app for the WebSocket tests: a room in the path, a nickname in the query, a bearer token
// checked before the handshake, a generator dependency whose clean-ups are counted.
import { type AppOptions, createApp, ForbiddenError } from "unruffled";
import { dependency, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { websocket } from "unruffled/websocket";
import { z } from "zod";

export const Inbound = z.discriminatedUnion("type", [
  z.object({ type: z.literal("say"), text: z.string().min(1).max(200) }),
  z.object({ type: z.literal("leave") }),
  z.object({ type: z.literal("fail") }),
]);

export const Outbound = z.discriminatedUnion("type", [
  z.object({ type: z.literal("joined"), room: z.string(), nick: z.string(), user: z.string() }),
  z.object({ type: z.literal("said"), nick: z.string(), text: z.string() }),
]);

/** What a test can see of the app: how often the handler ran, and the clean-ups. */
export interface ChatEvents {
  handlerRuns: number;
  entered: number;
  cleanedUp: number;
  cleanUpErrors: unknown[];
}

export function chatApp(options: Partial<AppOptions> & { events?: ChatEvents } = {}) {
  const events: ChatEvents = options.events ?? {
    handlerRuns: 0,
    entered: 0,
    cleanedUp: 0,
    cleanUpErrors: [],
  };
  const bearer = httpBearer({
    verify: (token) => (token.startsWith("user-") ? { name: token.slice(5) } : null),
  });
  const session = dependency({
    async *resolve() {
      events.entered++;
      try {
        yield { id: events.entered };
      } catch (error) {
        events.cleanUpErrors.push(error);
        throw error;
      } finally {
        events.cleanedUp++;
      }
    },
  });
  const room = p.Path(z.string());
  const onlyMembers = dependency({
    params: { room, user: p.Security(bearer) },
    resolve: (_request, { room, user }) => {
      if (room === "private" && user.name !== "ann") throw new ForbiddenError("Only ann may join private");
      return user;
    },
  });
  const chat = websocket({
    name: "chat",
    params: {
      room,
      nick: p.Query(z.string().min(2)),
      user: p.Depends(onlyMembers),
      session: p.Depends(session),
    },
    inbound: Inbound,
    outbound: Outbound,
    async handler(socket, { room, nick, user }) {
      events.handlerRuns++;
      // An undeclared field (`secret`) must never reach the client.
      await socket.send({ type: "joined", room, nick, user: user.name, secret: "s3cret" } as never);
      for await (const message of socket) {
        if (message.type === "leave") break;
        if (message.type === "fail") throw new Error("The handler failed on purpose");
        await socket.send({ type: "said", nick, text: message.text });
      }
    },
  });
  const app = createApp({ ...options, routes: [path("/chat/{room}", { websocket: chat })] });
  return { app, chat, events };
}
