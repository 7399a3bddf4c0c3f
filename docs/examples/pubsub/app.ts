import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";
import { pubsub } from "./broker.ts";

const Note = z.object({ room: z.string(), text: z.string() });
// What each process heard last, per room: every process hears every note.
const latest = new Map<string, string>();

const postNote = endpoint({
  params: { note: p.Json(Note) },
  returns: JsonResponse,
  handler: async (_request, { note }) => {
    await pubsub.publish("notes", JSON.stringify(note));
    return new JsonResponse({ published: true });
  },
});

const latestNote = endpoint({
  params: { room: p.Path(z.string()) },
  returns: JsonResponse,
  handler: (_request, { room }) =>
    new JsonResponse({ room, text: latest.get(room) ?? null, pid: process.pid }),
});

export const app = createApp({
  routes: [
    path("/notes", { endpoint: postNote, methods: ["POST"] }),
    path("/notes/{room}/latest", { endpoint: latestNote }),
  ],
  pubsub,
  // Subscribed in every process before it accepts a connection.
  onStartup: async () => {
    await pubsub.subscribe("notes", (message) => {
      const note = Note.parse(JSON.parse(message));
      latest.set(note.room, note.text);
    });
  },
});
