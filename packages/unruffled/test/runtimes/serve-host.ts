// serve(app) from code on the runtime that runs this file (docs/runtimes.md, "From code"): prints what
// it resolves to, so that the test reads runtime, server, hostname and port. `websocket` as the
// argument serves the chat example, which has a WebSocket route; else the getting-started app.
import { handleShutdownSignals, serve } from "unruffled";

const { app } =
  process.argv[2] === "websocket"
    ? await import("../../../../docs/examples/websockets/chat.ts")
    : await import("../../../../docs/examples/getting-started/app.ts");
const server = await serve(app, { port: 0 });
handleShutdownSignals(() => server.close({ timeout: 5_000 }));
const { runtime, hostname, port } = server;
console.log(`served ${JSON.stringify({ runtime, server: server.server, hostname, port })}`);
