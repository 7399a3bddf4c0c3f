import { createApp, type Middleware } from "unruffled";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

// #region middleware
/** Stamps every answer, errors included: it changes the response `next` gives back. */
const poweredBy: Middleware = async (request, next) => {
  const response = await next(request);
  response.headers["x-powered-by"] = "unruffled";
  return response;
};

/** Answers 401 itself, without calling `next`, when the key is wrong: the endpoint never runs. */
const requireKey: Middleware = (request, next) => {
  if (request.headers["x-api-key"] !== "let-me-in") {
    return new JsonResponse({ detail: "Missing or wrong X-API-Key" }, { status: 401 });
  }
  return next(request);
};
// #endregion

const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello") });
const stats = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ orders: 42 }) });

// #region app
export const app = createApp({
  // Around every route, and around the 404 of a path no route serves.
  middleware: [poweredBy],
  routes: [
    path("/hello", { endpoint: hello }),
    // Around the routes of the group only, inside the app's.
    path("/admin", { middleware: [requireKey], routes: [path("/stats", { endpoint: stats })] }),
  ],
});
// #endregion
