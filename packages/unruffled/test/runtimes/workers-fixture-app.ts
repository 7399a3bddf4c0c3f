// The app `unruffled serve --workers 2` serves on Bun (workers.test.ts): which process answers, a
// topic published in one worker that a socket in another follows, and a rate limit the workers
// count together (workerStore(): through the primary).
import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { rateLimit, workerStore } from "unruffled/rate-limit";
import { endpoint, p, path } from "unruffled/route";
import { publish, websocket } from "unruffled/websocket";
import { z } from "zod";

const news = websocket({
  inbound: z.object({}),
  outbound: z.object({ headline: z.string(), pid: z.int() }),
  async handler(socket) {
    await socket.subscribe("news");
    await socket.send({ headline: "subscribed", pid: process.pid });
    for await (const _message of socket) {
      // Nothing to read: the socket only follows the topic.
    }
  },
});

const publishNews = endpoint({
  params: { headline: p.Query(z.string()) },
  returns: PlainTextResponse,
  handler: async (_request, { headline }) => {
    await publish(app, news, "news", { headline, pid: process.pid });
    return new PlainTextResponse(String(process.pid));
  },
});

const pid = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse(String(process.pid)),
});

const limited = path("/limited", {
  endpoint: pid,
  name: "limited",
  rateLimits: [rateLimit({ name: "hourly", limit: 20, window: 3600 })],
});

export const app = createApp({
  rateLimitStore: workerStore(),
  routes: [
    path("/pid", { endpoint: pid }),
    limited,
    path("/news", { websocket: news }),
    path("/news", { endpoint: publishNews, methods: ["POST"] }),
  ],
});
