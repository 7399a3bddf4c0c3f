import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

const linkTo = (name: string) =>
  endpoint({ returns: JsonResponse, handler: (request) => new JsonResponse({ self: request.urlFor(name) }) });

export const app = createApp({
  routes: [
    // Written as it reads; a client sends /menu/cr%C3%A8me%20br%C3%BBl%C3%A9e.
    path("/menu/crème brûlée", { endpoint: linkTo("dessert"), name: "dessert" }),
    path("/menu/soup/today", { endpoint: linkTo("soup"), name: "soup" }),
  ],
});
