// The runtime's own server with hand-written validation (Bun.serve or Deno.serve): the ceiling the
// frameworks are measured against on that runtime, with the rules of ../raw.ts.
import { listen } from "./listen.ts";
import { rawFetch } from "./raw-handler.ts";

listen(rawFetch);
