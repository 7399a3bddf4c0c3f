import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hi") });

/** Two routes named "hello" (their operation ids differ), and an unnamed one. */
export const app = createApp({
  routes: [
    path("/hello", { endpoint: hello, name: "hello", operationId: "hello_get" }),
    path("/hi", { endpoint: hello, methods: ["POST"], name: "hello", operationId: "hello_post" }),
  ],
});
