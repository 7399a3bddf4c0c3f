// The same unruffled app behind a fetch-based host: Node's http server through @hono/node-server's
// adapter calling `app.fetch(Request)`, as an app deployed where only a fetch handler is taken.
// Issue 40: at least 0.8× the app served by its own Node adapter (servers/unruffled.ts).
//
//   npm run bench:corun -- --a bench/servers/unruffled.ts --b bench/servers/unruffled-fetch.ts
import { serve } from "@hono/node-server";
import { app } from "./unruffled-app.ts";

await app.startup();
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: "127.0.0.1" }, (info) => {
  console.log(`listening ${info.port}`);
});
