// An app with a one-second request_timeout, which Bun.serve takes as its idle timeout: what the
// idle-timeout checks of bun-idle-timeout.test.ts serve.
import { EventEmitter, on } from "node:events";
import { createApp } from "unruffled";
import { EventStreamResponse, JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const pushes = new EventEmitter();

const follow = endpoint({
  returns: [p.ResponseSpec({ model: z.object({ n: z.int() }), content_type: "text/event-stream" })],
  handler: (request) => {
    async function* events() {
      yield { data: { n: 0 } };
      for await (const [n] of on(pushes, "push", { signal: request.signal }))
        yield { data: { n: n as number } };
    }
    return new EventStreamResponse(events(), { heartbeat: 60_000 });
  },
});

const push = endpoint({
  params: { n: p.Query(z.int()) },
  returns: JsonResponse,
  handler: (_request, { n }) => {
    pushes.emit("push", n);
    return new JsonResponse({ pushed: n });
  },
});

const slow = endpoint({
  params: { ms: p.Query(z.int()) },
  returns: JsonResponse,
  handler: async (_request, { ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return new JsonResponse({ waited: ms });
  },
});

export const app = createApp({
  settings: { LIMITS: { request_timeout: 1_000, headers_timeout: 1_000 }, LOGGING: { access_log: false } },
  routes: [
    path("/follow", { endpoint: follow }),
    path("/push", { endpoint: push }),
    path("/slow", { endpoint: slow }),
  ],
});
