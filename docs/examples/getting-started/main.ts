import { handleShutdownSignals } from "unruffled";
import { app } from "./app.ts";

const port = Number(process.env.PORT ?? 8000);
await app.listen({ port, host: "127.0.0.1" });
handleShutdownSignals(() => app.close());
console.log(`Listening on http://127.0.0.1:${app.address()?.port}`);
