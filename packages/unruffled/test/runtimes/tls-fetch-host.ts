// The cross-runtime fixture app given to the runtime's own server over TLS as a bare fetch handler:
// `Bun.serve({ tls, fetch: app.fetch })`, `Deno.serve({ cert, key }, app.fetch)`. The key and
// certificate come in TLS_KEY and TLS_CERT (PEM). Prints the address it listens on.
import { app } from "./fixture-app.ts";

type Handler = typeof app.fetch;
const runtimes = globalThis as unknown as {
  Bun?: {
    serve(options: { port: number; hostname: string; tls: { key: string; cert: string }; fetch: Handler }): {
      port: number;
    };
  };
  Deno?: {
    serve(
      options: {
        port: number;
        hostname: string;
        key: string;
        cert: string;
        onListen(address: { port: number }): void;
      },
      handler: Handler,
    ): unknown;
  };
};
const key = process.env.TLS_KEY!;
const cert = process.env.TLS_CERT!;
const listening = (port: number, how: string) =>
  console.log(`listening on https://127.0.0.1:${port} (${how})`);

if (runtimes.Deno !== undefined) {
  runtimes.Deno.serve(
    {
      port: 0,
      hostname: "127.0.0.1",
      key,
      cert,
      onListen: ({ port }) => listening(port, "Deno.serve(app.fetch)"),
    },
    app.fetch,
  );
} else {
  const server = runtimes.Bun!.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { key, cert },
    fetch: app.fetch,
  });
  listening(server.port, "Bun.serve({ tls, fetch: app.fetch })");
}
