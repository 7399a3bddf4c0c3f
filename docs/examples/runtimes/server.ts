// Serves the getting-started app on the runtime that runs this file: `npx node server.ts`,
// `bun server.ts` or `deno run -A server.ts`.
import { handleShutdownSignals, serve } from "unruffled";
import { app } from "../getting-started/app.ts";

const server = await serve(app, { port: Number(process.env.PORT ?? 8000) });
handleShutdownSignals(() => server.close({ timeout: 10_000 }));
console.log(`Serving on http://${server.hostname}:${server.port} (${server.runtime})`);
