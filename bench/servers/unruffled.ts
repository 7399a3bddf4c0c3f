// unruffled (packages/unruffled) on Node's http server; the app is in unruffled-app.ts.
import { app } from "./unruffled-app.ts";

const server = await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
const address = server.address();
console.log(`listening ${typeof address === "object" && address !== null ? address.port : 0}`);
