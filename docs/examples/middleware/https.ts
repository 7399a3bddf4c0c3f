import { createApp, httpsRedirect, trustedHost } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

const hello = endpoint({
  returns: JsonResponse,
  handler: (request) => new JsonResponse({ hello: request.client.origin }),
});

// #region app
export const app = createApp({
  // The load balancer ends TLS and says how the client came in X-Forwarded-Proto.
  settings: { PROXIES: { trusted: ["loopback", "10.0.0.0/8"] } },
  middleware: [trustedHost({ hosts: ["api.example.com"] }), httpsRedirect()],
  routes: [path("/hello", { endpoint: hello })],
});
// #endregion
