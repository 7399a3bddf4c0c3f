// app.listen() on the runtime that runs this file (docs/runtimes.md, "From code": Node's `http` on
// every runtime, through Bun's and Deno's Node compatibility). Prints the port it listens on.
import { handleShutdownSignals } from "unruffled";
import { app } from "../../../../docs/examples/getting-started/app.ts";

await app.listen({ port: 0, host: "127.0.0.1" });
handleShutdownSignals(() => app.close({ timeout: 5_000 }));
console.log(`listening on http://127.0.0.1:${app.address()!.port} `);
