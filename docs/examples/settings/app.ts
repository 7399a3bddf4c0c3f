import { createApp, type Settings } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

export const settings: Settings = {
  OPENAPI: {
    info: { title: "Notes", version: "2.1.0", description: "Short notes, kept for a day." },
    servers: [{ url: "https://notes.example.org", description: "Production" }],
    allow_public: process.env.NODE_ENV !== "production",
  },
  DEBUG: process.env.DEBUG === "1",
  LIMITS: { body_size: 64 * 1024, request_timeout: 10_000 },
  LOGGING: { level: "warn" }, // "info" adds a line per request
};

const addNote = endpoint({
  params: { text: p.Json(z.string()) },
  returns: JsonResponse,
  handler: (_request, { text }) => new JsonResponse({ length: text.length }, { status: 201 }),
});

const crash = endpoint({
  returns: JsonResponse,
  handler(): JsonResponse {
    throw new Error("the disk is on fire");
  },
});

export const app = createApp({
  settings,
  routes: [path("/notes", { endpoint: addNote, methods: ["POST"] }), path("/crash", { endpoint: crash })],
});
