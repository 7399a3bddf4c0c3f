import { EventEmitter, on } from "node:events";
import { createApp } from "unruffled";
import { EventStreamResponse, JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Headline = z
  .object({ id: z.int(), title: z.string(), published_at: z.iso.datetime() })
  .meta({ id: "Headline" });
type Headline = z.output<typeof Headline>;

const headlines: Headline[] = [];
const published = new EventEmitter();

export const publish = endpoint({
  params: { body: p.Json(z.object({ title: z.string().min(1).max(200) })) },
  returns: [p.ResponseSpec({ model: Headline, code: "201" })],
  handler: (_request, { body }) => {
    const headline = { id: headlines.length + 1, title: body.title, published_at: new Date().toISOString() };
    headlines.push(headline);
    published.emit("headline", headline);
    return new JsonResponse(headline, { status: 201 });
  },
});

export const follow = endpoint({
  summary: "Follow the headlines",
  params: {
    last_event_id: p.Header(z.coerce.number().int().min(0).optional(), {
      description: "The id of the last headline seen: the later ones are sent first",
    }),
  },
  returns: [
    p.ResponseSpec({
      model: Headline,
      content_type: "text/event-stream",
      description: "Each headline as it is published",
    }),
  ],
  handler: (request, { last_event_id }) => {
    async function* headlinesAfter(seen: number) {
      // Listening, then catching up, in one step: nothing published in between is missed.
      const live = on(published, "headline", { signal: request.signal });
      const missed = headlines.slice(seen);
      for (const headline of missed) yield { id: String(headline.id), data: headline };
      try {
        for await (const [headline] of live) yield { id: String(headline.id), data: headline as Headline };
      } catch (error) {
        if (!request.signal.aborted) throw error; // the client went away: the loop is over
      }
    }
    return new EventStreamResponse(headlinesAfter(last_event_id ?? 0));
  },
});

export const app = createApp({
  routes: [
    path("/headlines", { endpoint: publish, methods: ["POST"], name: "publish" }),
    path("/headlines/events", { endpoint: follow, name: "follow_headlines" }),
  ],
});
