// Serves a fetch handler on the runtime's own server (Bun.serve or Deno.serve) and prints
// `listening <port>`, which the bench runner waits for. Bun and Deno types are not dependencies.
type Handler = (request: Request) => Response | Promise<Response>;
type Runtimes = {
  Bun?: { serve(options: object): { port: number } };
  Deno?: { serve(options: object, handler: Handler): { addr: { port: number } } };
};

export function listen(fetch: Handler): void {
  const { Bun, Deno } = globalThis as Runtimes;
  const port = Number(process.env.PORT ?? 0);
  if (Bun !== undefined) {
    const server = Bun.serve({ port, hostname: "127.0.0.1", development: false, fetch });
    console.log(`listening ${server.port}`);
  } else if (Deno !== undefined) {
    const server = Deno.serve({ port, hostname: "127.0.0.1", onListen: () => {} }, fetch);
    console.log(`listening ${server.addr.port}`);
  } else {
    throw new Error("bench/servers/web/*.ts run on Bun or Deno: npm run bench -- --runtime bun");
  }
}
