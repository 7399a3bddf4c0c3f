import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { clientAddressKey, memoryStore, rateLimit } from "unruffled/rate-limit";
import { endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { z } from "zod";

// #region policies
// 2 searches per hour per client, and 100 requests per minute on every route of the app.
const searches = rateLimit({ name: "searches", limit: 2, window: 3600 });
const everything = rateLimit({ name: "all", limit: 100, window: 60 });
// A tenant's quota: the key is the tenant the bearer token stands for, and an export costs 10 units.
// A request whose token was refused has no principal: it is counted against its address.
const exports = rateLimit({
  name: "exports",
  limit: 50,
  window: 86_400,
  key: (request, principal) =>
    principal === undefined
      ? clientAddressKey(request)
      : `tenant:${(principal as { tenant: string }).tenant}`,
  cost: 10,
});
// #endregion

const bearer = httpBearer({ verify: (token) => (token === "t-1" ? { sub: "ada", tenant: "acme" } : null) });

const search = endpoint({
  params: { q: p.Query(z.string()) },
  returns: JsonResponse,
  handler: (_request, { q }) => new JsonResponse({ q, hits: [] }),
});
const exportAll = endpoint({
  params: { user: p.Security(bearer) },
  returns: JsonResponse,
  handler: (_request, { user }) => new JsonResponse({ tenant: user.tenant, rows: 0 }),
});

// #region app
export const app = createApp({
  routes: [
    path("/search", { endpoint: search, rateLimits: [searches] }),
    path("/export", { endpoint: exportAll, rateLimits: [exports] }),
  ],
  rateLimits: [everything],
  // The guide replays its answers: its clock stands still so that they never change. Leave `clock` out.
  rateLimitStore: memoryStore({ clock: () => Date.UTC(2026, 0, 1) }),
});
// #endregion
