// The app of `npm run bench:ws-broadcast`, served by `unruffled serve` (with or without --workers).
// `GET /feed` is a WebSocket route whose handler subscribes the socket to one topic, says so with a
// first small message ("subscribed", with the pid of the process that holds the socket), and waits
// for the socket to close. `POST /publish?count=N&rate=R&size=B` publishes N messages of about B
// bytes on that topic with the public `publish(app, route, topic, message)`, R a second, from the
// process that took the request; each carries its sequence number and the wall-clock time just
// before its publish() (`performance.timeOrigin + performance.now()`, comparable across processes
// of one machine), and the time it was due by the pace (a publisher behind its schedule waited the
// difference, which the time from publish() does not show). The broker is the app's default (`app.pubsub`: memory in one process, the
// workers' relay under --workers), or PostgreSQL when BENCH_PUBSUB=postgres (DATABASE_URL).
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { postgresPubSub } from "unruffled/pubsub";
import { endpoint, p, path } from "unruffled/route";
import { publish, websocket } from "unruffled/websocket";
import { z } from "zod";

export const TOPIC = "broadcast";

const Outbound = z.discriminatedUnion("type", [
  z.object({ type: z.literal("subscribed"), pid: z.int() }),
  z.object({ type: z.literal("tick"), seq: z.int(), sent: z.number(), due: z.number(), pad: z.string() }),
]);
// The clients send nothing; a route takes an inbound model all the same.
const Inbound = z.object({ type: z.literal("noop") });

const feed = websocket({
  inbound: Inbound,
  outbound: Outbound,
  async handler(socket) {
    await socket.subscribe(TOPIC);
    await socket.send({ type: "subscribed", pid: process.pid });
    for await (const _message of socket) {
      // Nothing to do: the socket is a receiver.
    }
  },
});

const now = () => performance.timeOrigin + performance.now();

const publishMany = endpoint({
  params: {
    count: p.Query(z.int().min(1)),
    rate: p.Query(z.number().positive()),
    size: p.Query(z.int().min(64).default(1024)),
  },
  returns: JsonResponse,
  handler: async (_request, { count, rate, size }) => {
    // The padding brings the serialized message to about `size` bytes (the digits vary by a few).
    const bare = JSON.stringify({ type: "tick", seq: count, sent: now(), due: now(), pad: "" }).length;
    const pad = "x".repeat(Math.max(0, size - bare));
    const started = performance.now();
    const pending: Promise<void>[] = [];
    let failed = 0;
    let behind = 0;
    for (let seq = 0; seq < count; seq++) {
      // Paced from the start, not from the previous publish: a late one does not delay the rest.
      const due = started + (seq * 1000) / rate;
      const wait = due - performance.now();
      // A publisher behind its schedule still lets the event loop run between publishes, as any
      // app's does: one that never yields holds every socket's writes until it stops.
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      else await new Promise((resolve) => setImmediate(resolve));
      // How late this publish is: the time it waited here for the process is not in its latency.
      behind = Math.max(behind, performance.now() - due);
      // Not awaited one by one: a broker that batches (PostgreSQL) does, and each keeps its order.
      pending.push(
        publish(app, feed, TOPIC, {
          type: "tick",
          seq,
          sent: now(),
          due: performance.timeOrigin + due,
          pad,
        }).catch(() => {
          failed++;
        }),
      );
    }
    await Promise.all(pending);
    return new JsonResponse({
      pid: process.pid,
      published: count - failed,
      failed,
      seconds: (performance.now() - started) / 1000,
      behindMs: behind,
    });
  },
});

const { BENCH_PUBSUB, DATABASE_URL } = process.env;

const app = createApp({
  routes: [
    path("/feed", { websocket: feed }),
    path("/publish", { endpoint: publishMany, methods: ["POST"] }),
  ],
  ...(BENCH_PUBSUB === "postgres" ? { pubsub: postgresPubSub({ connectionString: DATABASE_URL! }) } : {}),
  settings: { LOGGING: { access_log: false } },
});

export default app;
