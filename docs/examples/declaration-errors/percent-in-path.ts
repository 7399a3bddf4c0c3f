import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

const dessert = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("sweet") });

export const app = createApp({
  routes: [path("/menu/cr%C3%A8me%20br%C3%BBl%C3%A9e", { endpoint: dessert })],
});
