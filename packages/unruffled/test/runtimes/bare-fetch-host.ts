// The cross-runtime fixture app given to the runtime's own server as a bare fetch handler, as
// docs/runtimes.md says works too: `Bun.serve({ fetch: app.fetch })`, `Deno.serve(app.fetch)`.
// Prints the address it listens on, as `unruffled serve` does.
import { app } from "./fixture-app.ts";

type Handler = typeof app.fetch;
const runtimes = globalThis as unknown as {
  Bun?: { serve(options: { port: number; hostname: string; fetch: Handler }): { port: number } };
  Deno?: {
    serve(
      options: { port: number; hostname: string; onListen(address: { port: number }): void },
      handler: Handler,
    ): unknown;
  };
};
const listening = (port: number, how: string) =>
  console.log(`listening on http://127.0.0.1:${port} (${how})`);

if (runtimes.Deno !== undefined) {
  runtimes.Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: ({ port }) => listening(port, "Deno.serve(app.fetch)") },
    app.fetch,
  );
} else {
  const server = runtimes.Bun!.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
  listening(server.port, "Bun.serve({ fetch: app.fetch })");
}
