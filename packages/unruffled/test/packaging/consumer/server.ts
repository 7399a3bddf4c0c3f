// Serves the app on a free loopback port, prints the port as one JSON line, and closes gracefully
// on SIGTERM.
import type { AddressInfo } from "node:net";
import { handleShutdownSignals } from "unruffled";
import { app } from "./app.ts";

const server = await app.listen({ port: 0, host: "127.0.0.1" });
handleShutdownSignals(() => app.close({ timeout: 2_000 }), { log: { info() {}, error: console.error } });
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
