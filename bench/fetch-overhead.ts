// unruffled's own cost per request through its fetch handler, in process (no sockets), beside the
// hand-written handler of the runtime's raw server (servers/web/raw-handler.ts), on the runtime that
// runs this file:
//
//   npx bun --conditions=source bench/fetch-overhead.ts      (or: npx deno run -A …, npx node …)
//
// Each batch runs every handler in turn (the order rotates from batch to batch), so a busy machine
// slows them alike; printed: CPU microseconds per request (median and fastest batch) and the median of
// the per-batch ratios to raw. BASE=/path/to/another/checkout adds that checkout's app ("base") for
// an A/B of two versions of the framework in one run. ONLY=hello,bind limits the endpoints;
// BATCHES and REQUESTS size the run. ROUTED=1 (Bun) measures the path `serve(app)` gives the fixed
// paths instead: each request goes straight to its route's handler in `Bun.serve`'s `routes`
// (server/bun/bun-routes.ts), as Bun's router would hand it, without the app's router. ELYSIA=1 (Bun)
// adds Elysia's compiled handler (`app.handle` of servers/web/elysia-app.ts): the framework Bun's
// users compare with, without its server, so that a gap over HTTP can be told apart from the
// per-request work of each framework.
import { app } from "./servers/unruffled-app.ts";
import { rawFetch } from "./servers/web/raw-handler.ts";

type Handler = (request: Request) => Response | Promise<Response>;

const ORIGIN = "http://127.0.0.1:8000";
const REQUESTS = Number(process.env.REQUESTS ?? 5_000);
const BATCHES = Number(process.env.BATCHES ?? 15);
// Bytes, as a server's request holds them (a string body would make text() unfairly cheap on Bun).
const BIND_BODY = new TextEncoder().encode(JSON.stringify({ student_id: 1, course_id: 2 }));

const PATHS: Record<string, string> = {
  hello: "/hello",
  list: "/api/enroll/student-list",
  bind: "/api/enroll/bind",
  students: "/api/enroll/students",
};

const cases: Record<string, () => Request> = {
  hello: () => new Request(`${ORIGIN}/hello`),
  list: () => new Request(`${ORIGIN}/api/enroll/student-list?page=1&size=10`),
  bind: () =>
    new Request(`${ORIGIN}/api/enroll/bind`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(BIND_BODY.length) },
      body: BIND_BODY,
    }),
  students: () => new Request(`${ORIGIN}/api/enroll/students`),
};

type Routed = (request: Request, server: unknown) => Response | Promise<Response>;

/** The handler of one endpoint for the app of the checkout at `root`: its `app.fetch`, or its Bun route. */
async function handlerOf(root: string, theApp: typeof app): Promise<(endpoint: string) => Handler> {
  await theApp.startup();
  if (process.env.ROUTED !== "1") return () => theApp.fetch;
  const source = `${root}/packages/unruffled/src/server`;
  const { webHandler } = await import(`${source}/fetch/fetch-adapter.ts`);
  const { bunRoutes } = await import(`${source}/bun/bun-routes.ts`);
  const inFlight = { closing: false, streams: new Map() };
  const routes = bunRoutes(theApp, inFlight, webHandler(theApp, inFlight));
  return (endpoint) => {
    const route = routes[PATHS[endpoint]!]![endpoint === "bind" ? "POST" : "GET"] as Routed;
    return (request) => route(request, undefined);
  };
}

const handlers: Record<string, (endpoint: string) => Handler> = { raw: () => rawFetch };
if (process.env.BASE) {
  const base = await import(`${process.env.BASE}/bench/servers/unruffled-app.ts`);
  handlers.base = await handlerOf(process.env.BASE, base.app);
}
if (process.env.ELYSIA === "1") {
  const elysia = (await import("./servers/web/elysia-app.ts")).app;
  handlers.elysia = () => (request) => elysia.handle(request);
}
handlers.unruffled = await handlerOf(new URL("..", import.meta.url).pathname.replace(/\/$/, ""), app);

// CPU time, not wall time: a batch the scheduler paused (the machine is shared) is not counted slower.
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

async function batch(handler: Handler, make: () => Request): Promise<number> {
  const start = cpuMicros();
  for (let index = 0; index < REQUESTS; index++) {
    const response = await handler(make());
    await response.arrayBuffer();
  }
  return (cpuMicros() - start) / REQUESTS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const only = process.env.ONLY?.split(",");
const names = Object.keys(handlers);

for (const [endpoint, make] of Object.entries(cases)) {
  if (only !== undefined && !only.includes(endpoint)) continue;
  const ofEndpoint = Object.fromEntries(names.map((name) => [name, handlers[name]!(endpoint)]));
  for (const name of names) await batch(ofEndpoint[name]!, make); // warm-up
  const micros: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < BATCHES; round++) {
    for (let turn = 0; turn < names.length; turn++) {
      const name = names[(round + turn) % names.length]!;
      micros[name]!.push(await batch(ofEndpoint[name]!, make));
    }
  }
  const cells = names.map((name) => {
    const times = micros[name]!;
    const ratio = median(times.map((time, round) => micros.raw![round]! / time));
    return `${name} ${median(times).toFixed(2)} µs (min ${Math.min(...times).toFixed(2)}, raw÷ ${ratio.toFixed(2)})`;
  });
  console.log(`${endpoint.padEnd(8)} ${cells.join("  |  ")}`);
}
