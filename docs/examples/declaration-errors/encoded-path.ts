import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

const menu = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("Crème brûlée, 6 €"),
});

export const app = createApp({
  routes: [path("/desserts/cr%C3%A8me", { endpoint: menu, name: "creme" })],
});
