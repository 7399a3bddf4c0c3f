// `npm run bench -- --runtime bun` (or deno): the frameworks suite's endpoints on the runtime's own
// server (bench/servers/web/*.ts): its raw server, the framework its users pick for speed (Elysia,
// on Bun), Hono with its Zod validator, and unruffled through serve(app). On Bun, also its raw
// server keeping unruffled's request contract (raw-contract.ts): the line under which no
// implementation of that contract can fall, shown against unruffled and against Elysia.
import { frameworks } from "./frameworks.ts";
import { pairReference, rpsLine, type ServerDef, type Suite } from "./suite.ts";

// The CORS-and-compression list is a Node comparison with Fastify: left out here.
const ENDPOINTS = frameworks.endpoints.filter((endpoint) => endpoint.servers === undefined);
const CHECKS = frameworks.checks.filter((check) => check.servers === undefined);

function onRuntime(runtime: "bun" | "deno", label: string, peers: ServerDef[], contract?: ServerDef): Suite {
  const servers: ServerDef[] = [
    { id: "raw", label: `${label} raw`, file: "servers/web/raw.ts", runtime },
    ...(contract === undefined ? [] : [contract]),
    ...peers,
    { id: "hono", label: `Hono 4 + @hono/zod-validator on ${label}`, file: "servers/web/hono.ts", runtime },
    { id: "unruffled", label: `unruffled on ${label}`, file: "servers/web/unruffled.ts", runtime },
  ];
  const suite: Suite = {
    id: runtime,
    title: `the same in-memory endpoints on ${label}'s own server`,
    servers,
    endpoints: ENDPOINTS,
    checks: CHECKS,
    readyPath: "/hello",
    targets(summary) {
      const lines: string[] = [];
      for (const endpoint of ENDPOINTS) {
        if (summary.unruffled?.endpoints[endpoint.id] === undefined) continue;
        for (const peer of peers) {
          lines.push(rpsLine(`${endpoint.id}: req/s vs ${peer.label}`, summary, endpoint.id, peer.id, 1));
        }
        lines.push(rpsLine(`${endpoint.id}: req/s vs ${label} raw`, summary, endpoint.id, "raw", 0.9));
        lines.push(rpsLine(`${endpoint.id}: req/s vs Hono`, summary, endpoint.id, "hono", 1));
        if (contract === undefined) continue;
        lines.push(
          pairReference(
            `${endpoint.id}: req/s vs ${contract.label}`,
            summary,
            endpoint.id,
            "unruffled",
            contract.id,
          ),
        );
        for (const peer of peers) {
          const text = `${endpoint.id}: ${contract.label} vs ${peer.label}`;
          lines.push(pairReference(text, summary, endpoint.id, contract.id, peer.id));
        }
      }
      return lines;
    },
  };
  return suite;
}

export const onBun = onRuntime(
  "bun",
  "Bun",
  [{ id: "elysia", label: "Elysia 1.4", file: "servers/web/elysia.ts", runtime: "bun" }],
  { id: "raw-contract", label: "Bun raw + request id", file: "servers/web/raw-contract.ts", runtime: "bun" },
);

export const onDeno = onRuntime("deno", "Deno", []);
