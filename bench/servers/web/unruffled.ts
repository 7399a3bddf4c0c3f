// unruffled on the runtime's own server (serve(app): Bun.serve or Deno.serve); the app is ../unruffled-app.ts.
import { serve } from "unruffled";
import { app } from "../unruffled-app.ts";

const server = await serve(app, { port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
console.log(`listening ${server.port}`);
