import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

const app = createApp({
  routes: [path("/a", { endpoint: endpoint({ returns: PlainTextResponse } as any) })],
});
const r = await app.fetch(new Request("http://x/a"));
console.log(r.status, await r.text());
process.exit(0);
