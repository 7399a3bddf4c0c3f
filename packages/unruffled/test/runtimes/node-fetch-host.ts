// The cross-runtime fixture app behind a fetch-based host on Node: @hono/node-server calling
// `app.fetch(request, { incoming, outgoing })`, as an app deployed where only a fetch handler is
// taken. Prints the address it listens on, as `unruffled serve` does.
import { serve } from "@hono/node-server";
import { app } from "./fixture-app.ts";

await app.startup();
// As `serve()` creates Node's server: a single-value header sent twice reads as both values joined.
const serverOptions = { joinDuplicateHeaders: true };
serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", serverOptions }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port} (app.fetch behind @hono/node-server)`);
});
