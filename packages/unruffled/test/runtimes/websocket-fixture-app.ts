// The app the cross-runtime WebSocket suite serves with `unruffled serve` on Node (ws) and Bun
// (Bun.serve's own WebSockets): one route per behaviour of a WebSocket route, plus `/journal`, where
// the server's side (clean-ups, the handler's end) is read back, since the test runs in another process.
import { readdirSync } from "node:fs";
import { createApp, ForbiddenError } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { redisPubSub } from "unruffled/pubsub";
import { dependency, endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { publish, websocket } from "unruffled/websocket";
import { z } from "zod";

/** What happened on the server's side, in order; read with GET /journal. */
const journal: string[] = [];

const bearer = httpBearer({
  verify: (token) => (token.startsWith("user-") ? { name: token.slice("user-".length) } : null),
});

/** Entered before the handshake, ended once the socket closed and the handler returned. */
const session = dependency({
  params: { room: p.Path(z.string()), user: p.Security(bearer) },
  async *resolve(_request, { room, user }) {
    if (room === "private" && user.name !== "ann") throw new ForbiddenError("Only ann may join private");
    journal.push(`enter ${room}`);
    try {
      yield { room, user: user.name };
    } catch (error) {
      journal.push(`failed ${room}: ${(error as Error).message}`);
      throw error;
    } finally {
      journal.push(`leave ${room}`);
    }
  },
});

const RoomIn = z.discriminatedUnion("type", [
  z.object({ type: z.literal("say"), text: z.string().min(1).max(200) }),
  z.object({ type: z.literal("leave") }),
  z.object({ type: z.literal("fail") }),
  z.object({ type: z.literal("burst"), count: z.int().min(1).max(100_000), size: z.int().min(0) }),
]);

const RoomOut = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("joined"),
    room: z.string(),
    user: z.string(),
    nick: z.string(),
    address: z.string(),
  }),
  z.object({ type: z.literal("said"), nick: z.string(), text: z.string() }),
  z.object({ type: z.literal("item"), index: z.int(), pad: z.string() }),
]);

const room = websocket({
  params: { nick: p.Query(z.string().min(2)), session: p.Depends(session) },
  inbound: RoomIn,
  outbound: RoomOut,
  // Small marks, so that a burst of a few hundred kilobytes waits on the peer.
  highWaterMark: 16 * 1024,
  lowWaterMark: 4 * 1024,
  async handler(socket, { nick, session }, request) {
    // An undeclared field (`secret`) never leaves.
    await socket.send({
      type: "joined",
      ...session,
      nick,
      address: request.client.address ?? "",
      secret: "s3cret",
    } as never);
    for await (const message of socket) {
      if (message.type === "leave") break;
      if (message.type === "fail") throw new Error("The handler failed on purpose");
      if (message.type === "say") await socket.send({ type: "said", nick, text: message.text });
      else {
        const pad = "x".repeat(message.size);
        for (let index = 0; index < message.count; index++) await socket.send({ type: "item", index, pad });
      }
    }
    journal.push(`handler returned ${session.room}`);
  },
});

/** A dependency that takes 200 ms before the handshake: a client may leave meanwhile. */
const slowly = dependency({
  async *resolve() {
    journal.push("slow enter");
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      yield "ready";
    } finally {
      journal.push("slow leave");
    }
  },
});
const slowOpen = websocket({
  params: { ready: p.Depends(slowly) },
  inbound: z.object({}),
  outbound: z.object({}),
  async handler() {
    journal.push("slow handler");
  },
});

/** Invalid messages skipped, and a small message size. */
const small = websocket({
  inbound: z.object({ text: z.string() }),
  outbound: z.object({ echo: z.string() }),
  onInvalid: "skip",
  maxPayload: 64,
  pingInterval: 0,
  async handler(socket) {
    for await (const message of socket) await socket.send({ echo: message.text });
  },
});

/** Takes each message a millisecond late: a flood fills its queue, and the socket stops reading. */
const slowReader = websocket({
  inbound: z.object({ text: z.string() }),
  outbound: z.object({ echo: z.string() }),
  async handler(socket) {
    for await (const message of socket) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      await socket.send({ echo: message.text });
    }
  },
});

/** What the upgrade request's signal says while the socket is open, then once it closed. */
const signal = websocket({
  inbound: z.object({}),
  outbound: z.object({ aborted: z.boolean() }),
  async handler(socket, _params, request) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await socket.send({ aborted: request.signal.aborted });
    await socket.done;
    await new Promise((resolve) => setTimeout(resolve, 50));
    journal.push(`signal after close: ${request.signal.aborted}`);
  },
});

/**
 * A heartbeat every second: a peer that answers no ping is cut. Not shorter: a peer that answers
 * must do so within two intervals, which a test process busy opening sockets on a loaded machine
 * missed at 150 ms (the server cut 159 of 500 answering clients).
 */
const beat = websocket({
  inbound: z.object({ text: z.string() }),
  outbound: z.object({ text: z.string() }),
  pingInterval: 1_000,
  async handler(socket) {
    for await (const message of socket) await socket.send(message);
  },
});

/** The same with a heartbeat every 10 s, for many clients at once: its timer runs, none is cut. */
const beatMany = websocket({
  inbound: z.object({ text: z.string() }),
  outbound: z.object({ text: z.string() }),
  pingInterval: 10_000,
  async handler(socket) {
    for await (const message of socket) await socket.send(message);
  },
});

/**
 * Sends under "wait" until a send reports that it did not go out (the peer stopped reading, then
 * left); tells the journal once a send waits (the peer holds the high-water mark unread).
 */
const waiting = websocket({
  inbound: z.object({}),
  outbound: z.object({ pad: z.string() }),
  highWaterMark: 16 * 1024,
  lowWaterMark: 4 * 1024,
  async handler(socket) {
    const pad = "w".repeat(1024);
    let waited = false;
    for (let index = 0; index < 1_000_000; index++) {
      const sent = socket.send({ pad });
      if (!waited && socket.bufferedAmount >= 16 * 1024) {
        waited = true;
        journal.push("waiting send waits for the peer");
      }
      if (!(await sent)) {
        journal.push(`waiting send resolved false after ${index > 0 ? "some" : "none"}`);
        return;
      }
    }
  },
});

/** A peer that reads too slowly is closed with 1013. */
const impatient = websocket({
  inbound: z.object({ count: z.int() }),
  outbound: z.object({ pad: z.string() }),
  highWaterMark: 16 * 1024,
  onBackpressure: "close",
  async handler(socket) {
    for await (const message of socket) {
      const pad = "y".repeat(1024);
      for (let index = 0; index < message.count && !socket.closed; index++) socket.send({ pad });
      if (socket.closed) journal.push("impatient closed its peer");
    }
  },
});

/** Follows the topic `news`, which POST /news publishes to. */
const news = websocket({
  inbound: z.object({}),
  outbound: z.object({ headline: z.string() }),
  async handler(socket) {
    await socket.subscribe("news");
    await socket.send({ headline: "subscribed" });
    for await (const _message of socket) {
      // Nothing to read: the socket only follows the topic.
    }
  },
});

const publishNews = endpoint({
  params: { headline: p.Query(z.string()) },
  returns: PlainTextResponse,
  handler: async (_request, { headline }) => {
    await publish(app, news, "news", { headline });
    return new PlainTextResponse("published");
  },
});

/** The same path as a plain page and as a WebSocket: the upgrade goes to the socket. */
const sharedPage = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("the page"),
});
const shared = websocket({
  inbound: z.object({ text: z.string() }),
  outbound: z.object({ text: z.string() }),
  async handler(socket) {
    await socket.send({ text: "the socket" });
  },
});

/** Reads its first message only once the client has closed: the rest arrived before the close. */
const lastWords = websocket({
  inbound: z.object({ text: z.string() }),
  outbound: z.object({ type: z.literal("ready") }),
  async handler(socket) {
    await socket.send({ type: "ready" });
    for await (const message of socket) {
      journal.push(`last-words read ${message.text}`);
      await socket.done;
    }
    journal.push("last-words loop ended");
  },
});

/** The sockets open and the process's file descriptors: what is left once clients are gone. */
const stats = endpoint({
  returns: JsonResponse,
  handler: () =>
    new JsonResponse({
      sockets: app.websocketUpgrades?.size ?? 0,
      descriptors: readdirSync("/proc/self/fd").length,
    }),
});

const readJournal = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse(journal.join("\n")),
});

export const app = createApp({
  settings: { ERRORS: { format: "problem" } },
  // Two instances given one Redis share their topics (REDIS_URL); alone, the app's own broker.
  ...(process.env.REDIS_URL ? { pubsub: redisPubSub({ url: process.env.REDIS_URL }) } : {}),
  routes: [
    path("/rooms/{room}", { websocket: room }),
    path("/small", { websocket: small }),
    path("/slow-open", { websocket: slowOpen }),
    path("/slow-reader", { websocket: slowReader }),
    path("/beat", { websocket: beat }),
    path("/beat-many", { websocket: beatMany }),
    path("/signal", { websocket: signal }),
    path("/impatient", { websocket: impatient }),
    path("/waiting", { websocket: waiting }),
    path("/news", { websocket: news }),
    path("/news", { endpoint: publishNews, methods: ["POST"] }),
    path("/shared", { endpoint: sharedPage }),
    path("/shared", { websocket: shared }),
    path("/last-words", { websocket: lastWords }),
    path("/journal", { endpoint: readJournal }),
    path("/stats", { endpoint: stats }),
  ],
});
