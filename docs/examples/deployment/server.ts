import { availableParallelism } from "node:os";
import { handleShutdownSignals, runWorkers } from "unruffled";
import { app } from "../getting-started/app.ts";

const port = Number(process.env.PORT ?? 8000);
const host = process.env.HOST ?? "127.0.0.1";

await runWorkers({
  workers: Number(process.env.WORKERS ?? availableParallelism()),
  // Each worker runs this: it listens (the workers share the port) and closes gracefully on SIGTERM.
  start: async () => {
    await app.listen({ port, host });
    handleShutdownSignals(() => app.close({ timeout: 10_000 }));
    console.log(`pid ${process.pid} listening on http://${host}:${app.address()?.port}`);
  },
  // The primary waits a little longer than a worker's own deadline before killing it.
  shutdownTimeout: 15_000,
});
