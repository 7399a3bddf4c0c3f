import { createApp, trustedHost } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

const hello = endpoint({
  returns: JsonResponse,
  handler: (request) => new JsonResponse({ hello: request.client.origin }),
});

// #region app
export const app = createApp({
  middleware: [trustedHost({ hosts: ["www.example.com", "*.example.com"] })],
  routes: [path("/hello", { endpoint: hello })],
});
// #endregion
