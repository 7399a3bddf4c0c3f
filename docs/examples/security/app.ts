import { createApp } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { apiKeyHeader, httpBearer } from "unruffled/security";
import { z } from "zod";

// #region schemes
const users = new Map([
  ["ann-token", { name: "Ann", scope: "notes:read notes:write" }],
  ["bob-token", { name: "Bob", scope: "notes:read" }],
]);

const bearer = httpBearer({ verify: (token) => users.get(token) ?? null });

const partnerKey = apiKeyHeader({
  name: "partnerKey",
  header: "X-API-Key",
  verify: (key) => (key === "partner-key" ? { partner: "Acme" } : null),
});
// #endregion

// #region endpoints
const readNotes = endpoint({
  params: { user: p.Security(bearer, { scopes: ["notes:read"] }) },
  returns: JsonResponse,
  handler: (_request, { user }) => new JsonResponse({ for: user.name, notes: [] }),
});

const addNote = endpoint({
  params: { user: p.Security(bearer, { scopes: ["notes:write"] }), text: p.Json(z.string()) },
  returns: JsonResponse,
  handler: (_request, { user, text }) => new JsonResponse({ by: user.name, text }, { status: 201 }),
});

const greet = endpoint({
  params: { user: p.Security(bearer, { optional: true }) },
  returns: PlainTextResponse,
  handler: (_request, { user }) => new PlainTextResponse(`Hello, ${user?.name ?? "stranger"}!`),
});

const report = endpoint({
  returns: JsonResponse,
  handler: () => new JsonResponse({ notes: 0 }),
});

export const app = createApp({
  routes: [
    path("/notes", { endpoint: readNotes, name: "read_notes" }),
    path("/notes", { endpoint: addNote, methods: ["POST"], name: "add_note" }),
    path("/hello", { endpoint: greet }),
    path("/partner", {
      dependencies: [p.Security(partnerKey)],
      routes: [path("/report", { endpoint: report })],
    }),
  ],
});
// #endregion
