import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Filters = z.object({
  min: z.int().default(0),
  max: z.int().default(100),
  active: z.boolean().optional(),
});
const Client = z.object({
  x_request_id: z.string().max(64).optional(),
  accept_language: z.string().optional(),
});
const Prefs = z.object({
  theme: z.enum(["light", "dark"]).default("light"),
  lang: z.string().max(8).default("en"),
});
const Address = z.object({ street: z.string().max(100), zip: z.string().regex(/^\d{5}$/) });
const Person = z.object({
  name: z.string().min(1).max(100),
  age: z.int().min(0).max(150),
  score: z.number().optional(),
  tags: z.array(z.string().max(20)).max(10).default([]),
  address: Address.optional(),
  admin: z.boolean().default(false),
});
const Signup = z.object({ username: z.string().min(3).max(20), agree: z.boolean(), age: z.int().optional() });

/** Names a hostile client would aim at: every declared wire name of the app below. */
export const declaredNames = {
  query: ["q", "tags", "page", "flag", "ratio", "kind", "min", "max", "active"],
  header: ["x-token", "x-ids", "x-request-id", "accept-language"],
  cookie: ["session", "theme", "lang"],
  json: ["name", "age", "score", "tags", "address", "admin", "street", "zip", "note", "priority"],
  form: ["username", "agree", "age", "comment", "avatar", "attachments"],
};

const echoValues = (_request: unknown, values: Record<string, unknown>) => new JsonResponse(values);

/** Every marker kind, as scalars, lists and models, with defaults and constraints: a target for fuzzing. */
export const everyMarker = {
  read: endpoint({
    params: {
      item_id: p.Path(z.int().gt(0)),
      q: p.Query(z.string().max(50), { default: "" }),
      tags: p.Query(z.array(z.string()), { default: [] }),
      page: p.Query(z.int(), { default: 1, ge: 1, le: 1000 }),
      flag: p.Query(z.boolean(), { default: false }),
      ratio: p.Query(z.number(), { default: 0 }),
      kind: p.Query(z.enum(["a", "b", "c"]), { default: "a" }),
      filters: p.Query(Filters),
      x_token: p.Header(z.string().max(100), { default: "none" }),
      x_ids: p.Header(z.array(z.int()), { default: [] }),
      client: p.Header(Client),
      session: p.Cookie(z.string().max(200), { default: "" }),
      prefs: p.Cookie(Prefs),
    },
    returns: JsonResponse,
    handler: echoValues,
  }),
  json: endpoint({
    params: {
      person: p.Json(Person),
      note: p.Json(z.string().max(200), { default: "" }),
      priority: p.Json(z.int(), { default: 0, ge: 0, le: 10 }),
    },
    returns: JsonResponse,
    handler: echoValues,
  }),
  form: endpoint({
    params: { signup: p.Form(Signup), comment: p.Form(z.string().max(500), { default: "" }) },
    returns: JsonResponse,
    handler: echoValues,
  }),
  upload: endpoint({
    params: {
      avatar: p.File({ maxSize: 4096 }),
      attachments: p.File({ list: true, optional: true }),
      comment: p.Form(z.string().max(500), { default: "" }),
    },
    returns: JsonResponse,
    handler: echoValues,
  }),
};

/** Small limits so that fuzzed bodies reach them. */
export const hostileLimits = {
  body_size: 64 * 1024,
  form_size: 16 * 1024,
  file_size: 8192,
  upload_size: 64 * 1024,
  files: 4,
  fields: 8,
  field_size: 1024,
};

/** The fuzzing target app; `errors` collects whatever reached the 500 fallback. */
export function createHostileApp() {
  const errors: unknown[] = [];
  const app = createApp({
    routes: [
      path("/items/{item_id}", { endpoint: everyMarker.read, methods: ["GET"] }),
      path("/json", { endpoint: everyMarker.json, methods: ["POST"] }),
      path("/form", { endpoint: everyMarker.form, methods: ["POST"] }),
      path("/upload", { endpoint: everyMarker.upload, methods: ["POST"] }),
    ],
    settings: { LIMITS: hostileLimits },
    logger: { error: (details) => void errors.push(details.err) },
  });
  return { app, errors };
}
