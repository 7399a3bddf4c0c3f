import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

// @ts-expect-error returns is required
const hello = endpoint({
  handler: () => new JsonResponse({ hello: "world" }),
});

export const app = createApp({ routes: [path("/hello", { endpoint: hello, name: "hello" })] });
