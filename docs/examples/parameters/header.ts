import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const whoAmI = endpoint({
  params: {
    x_token: p.Header(z.string()), // reads the header x-token; required
    userAgent: p.Header(z.string(), { default: "unknown" }), // reads user-agent
    traceId: p.Header(z.string().optional(), { alias: "X-Trace" }), // reads x-trace
    accept_language: p.Header(z.array(z.string()), { default: [] }), // "fr, en" → ["fr", "en"]
  },
  returns: JsonResponse,
  handler: (_request, headers) => new JsonResponse(headers),
});

export const app = createApp({ routes: [path("/me", { endpoint: whoAmI })] });
