// The same API of N routes, written for unruffled, Hono (with hc) and oRPC, as the programs whose
// type-check cost bench:types compares. Half the routes are a GET with a path integer and a query
// integer with a default, half a POST with a JSON body answered by 201; every route has its own models.

/** One program to check: its files (name → source) and which of them are the roots. */
export interface Program {
  files: Record<string, string>;
  roots: string[];
}

/** The programs of one framework at one size, by role. */
export type Programs = Record<string, Program>;

const isGet = (index: number) => index % 2 === 0;

function models(index: number): string {
  const item = `const Item${index} = z.object({ id: z.int(), name: z.string(), tags: z.array(z.string()) });`;
  if (isGet(index)) return item;
  return `${item}\nconst NewItem${index} = z.object({ name: z.string(), price: z.number() });`;
}

// Call sites go in functions of 50, as an app spreads them: one function of thousands of calls is
// more than TypeScript's control-flow analysis takes (TS2563).
const CALLS_PER_FUNCTION = 50;

/** The call sites' lines, in exported functions of CALLS_PER_FUNCTION calls each. */
function inFunctions(size: number, callLines: (index: number) => string[]): string[] {
  const lines: string[] = [];
  for (let start = 0; start < size; start += CALLS_PER_FUNCTION) {
    lines.push(`export async function calls${start / CALLS_PER_FUNCTION}() {`);
    for (let index = start; index < Math.min(size, start + CALLS_PER_FUNCTION); index++) {
      lines.push(...callLines(index));
    }
    lines.push("}");
  }
  return lines;
}

/** A line that reads the answer, so that every call site's types are used, not just created. */
function use(expression: string): string {
  return `seen.push(${expression});`;
}

/** unruffled: endpoints, the app, and testClient calls; the generated client is written by run.ts. */
export function unruffledPrograms(size: number): Programs {
  const server = [
    'import { createApp } from "unruffled";',
    'import { JsonResponse } from "unruffled/http";',
    'import { endpoint, p, path } from "unruffled/route";',
    'import { z } from "zod";',
    "",
  ];
  const routes: string[] = [];
  for (let index = 0; index < size; index++) {
    server.push(models(index));
    if (isGet(index)) {
      server.push(
        `export const e${index} = endpoint({
  params: { id: p.Path(z.int()), page: p.Query(z.int(), { default: 1 }) },
  returns: [p.ResponseSpec({ model: Item${index} })],
  handler: (_request, { id, page }) => new JsonResponse({ id, name: \`item \${page}\`, tags: [] }),
});`,
      );
      routes.push(`  path("/items${index}/{id}", { endpoint: e${index}, name: "r${index}" }),`);
    } else {
      server.push(
        `export const e${index} = endpoint({
  params: { body: p.Json(NewItem${index}) },
  returns: [p.ResponseSpec({ code: "201", model: Item${index} })],
  handler: (_request, { body }) => new JsonResponse({ id: 1, name: body.name, tags: [] }, { status: 201 }),
});`,
      );
      routes.push(`  path("/items${index}", { endpoint: e${index}, methods: ["POST"], name: "r${index}" }),`);
    }
  }
  server.push("", "export const app = createApp({ routes: [", ...routes, "] });", "");

  const testCalls = [
    'import { testClient } from "unruffled/testing";',
    `import * as api from "./server.ts";`,
    "",
    "const client = testClient(api.app);",
    "export const seen: unknown[] = [];",
    ...inFunctions(size, (index) => [
      isGet(index)
        ? `  const a${index} = await client.call(api.e${index}, { id: 1, page: 2 });`
        : `  const a${index} = await client.call(api.e${index}, { body: { name: "n", price: 1 } });`,
      `  ${use(`a${index}.json().name`)}`,
    ]),
    "",
  ];

  const clientCalls = [
    'import { createClient } from "./client.generated.ts";',
    "",
    'const client = createClient({ baseUrl: "http://127.0.0.1:8000" });',
    "export const seen: unknown[] = [];",
    ...inFunctions(size, (index) => [
      isGet(index)
        ? `  const a${index} = await client.r${index}({ id: 1, page: 2 });`
        : `  const a${index} = await client.r${index}({ body: { name: "n", price: 1 } });`,
      `  if (a${index}.kind === "documented" && a${index}.status === ${isGet(index) ? 200 : 201}) ${use(`a${index}.body.name`)}`,
    ]),
    "",
  ];

  const serverFile = server.join("\n");
  return {
    server: { files: { "server.ts": serverFile }, roots: ["server.ts"] },
    testClient: { files: { "server.ts": serverFile, "calls.ts": testCalls.join("\n") }, roots: ["calls.ts"] },
    // client.generated.ts is added by run.ts, from the app that server.ts builds.
    client: { files: { "calls.ts": clientCalls.join("\n") }, roots: ["calls.ts"] },
    baseline: { files: { "empty.ts": "export {};\n" }, roots: ["empty.ts"] },
  };
}

// Hono's recommended shape for a large app: sub-apps of chained routes, mounted with route().
const HONO_GROUP = 50;

export function honoPrograms(size: number): Programs {
  const server = [
    'import { Hono } from "hono";',
    'import { validator } from "hono/validator";',
    'import { z } from "zod";',
    "",
  ];
  const groups: string[] = [];
  for (let start = 0; start < size; start += HONO_GROUP) {
    const chain: string[] = [];
    for (let index = start; index < Math.min(size, start + HONO_GROUP); index++) {
      server.push(models(index));
      if (isGet(index)) {
        server.push(
          `const Params${index} = z.object({ id: z.coerce.number().int() });`,
          `const Query${index} = z.object({ page: z.coerce.number().int().default(1) });`,
        );
        chain.push(`  .get(
    "/items${index}/:id",
    validator("param", (value) => Params${index}.parse(value)),
    validator("query", (value) => Query${index}.parse(value)),
    (c) => {
      const item: z.output<typeof Item${index}> = { id: c.req.valid("param").id, name: \`item \${c.req.valid("query").page}\`, tags: [] };
      return c.json(item, 200);
    },
  )`);
      } else {
        chain.push(`  .post("/items${index}", validator("json", (value) => NewItem${index}.parse(value)), (c) => {
    const item: z.output<typeof Item${index}> = { id: 1, name: c.req.valid("json").name, tags: [] };
    return c.json(item, 201);
  })`);
      }
    }
    const name = `group${start / HONO_GROUP}`;
    server.push(`const ${name} = new Hono()\n${chain.join("\n")};`);
    groups.push(`  .route("/", ${name})`);
  }
  server.push(
    "",
    `export const app = new Hono()\n${groups.join("\n")};`,
    "export type AppType = typeof app;",
    "",
  );

  const calls = [
    'import { hc } from "hono/client";',
    'import type { AppType } from "./server.ts";',
    "",
    'const client = hc<AppType>("http://127.0.0.1:8000");',
    "export const seen: unknown[] = [];",
    ...inFunctions(size, (index) =>
      isGet(index)
        ? [
            `  const a${index} = await client.items${index}[":id"].$get({ param: { id: "1" }, query: { page: "2" } });`,
            `  if (a${index}.status === 200) ${use(`(await a${index}.json()).name`)}`,
          ]
        : [
            `  const a${index} = await client.items${index}.$post({ json: { name: "n", price: 1 } });`,
            `  if (a${index}.status === 201) ${use(`(await a${index}.json()).name`)}`,
          ],
    ),
    "",
  ];
  const serverFile = server.join("\n");
  return {
    server: { files: { "server.ts": serverFile }, roots: ["server.ts"] },
    client: { files: { "server.ts": serverFile, "calls.ts": calls.join("\n") }, roots: ["calls.ts"] },
  };
}

export function orpcPrograms(size: number): Programs {
  const server = ['import { os } from "@orpc/server";', 'import { z } from "zod";', ""];
  const names: string[] = [];
  for (let index = 0; index < size; index++) {
    server.push(models(index));
    if (isGet(index)) {
      server.push(`export const r${index} = os
  .route({ method: "GET", path: "/items${index}/{id}" })
  .input(z.object({ id: z.coerce.number().int(), page: z.coerce.number().int().default(1) }))
  .output(Item${index})
  .handler(({ input }) => ({ id: input.id, name: \`item \${input.page}\`, tags: [] }));`);
    } else {
      server.push(`export const r${index} = os
  .route({ method: "POST", path: "/items${index}", successStatus: 201 })
  .input(NewItem${index})
  .output(Item${index})
  .handler(({ input }) => ({ id: 1, name: input.name, tags: [] }));`);
    }
    names.push(`r${index}`);
  }
  server.push("", `export const router = { ${names.join(", ")} };`, "");
  const calls = [
    'import { createORPCClient } from "@orpc/client";',
    'import { RPCLink } from "@orpc/client/fetch";',
    'import type { RouterClient } from "@orpc/server";',
    'import type { router } from "./server.ts";',
    "",
    'const client: RouterClient<typeof router> = createORPCClient(new RPCLink({ url: "http://127.0.0.1:8000/rpc" }));',
    "export const seen: unknown[] = [];",
    ...inFunctions(size, (index) => [
      isGet(index)
        ? `  const a${index} = await client.r${index}({ id: 1, page: 2 });`
        : `  const a${index} = await client.r${index}({ name: "n", price: 1 });`,
      `  ${use(`a${index}.name`)}`,
    ]),
    "",
  ];
  const serverFile = server.join("\n");
  return {
    server: { files: { "server.ts": serverFile }, roots: ["server.ts"] },
    client: { files: { "server.ts": serverFile, "calls.ts": calls.join("\n") }, roots: ["calls.ts"] },
  };
}
