// Elysia on Bun, served by its own listen() (Bun.serve with Elysia's static routes), as its users run it;
// the app is elysia-app.ts.
import { app } from "./elysia-app.ts";

app.listen({ port: Number(process.env.PORT ?? 0), hostname: "127.0.0.1" });
console.log(`listening ${app.server?.port}`);
