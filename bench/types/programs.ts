// The same API of N routes, written for unruffled, Hono (with hc) and oRPC, as the programs whose
// type-check cost bench:types compares. Half the routes are a GET with a path integer and a query
// integer with a default, half a POST with a JSON body answered by 201; every route has its own models.
//
// Two layouts. "modules" (the default) puts the routes in modules of 50, as an app of hundreds of
// routes is written (a router per resource), and a server module gathers them. "file" puts them all
// in one module: there TypeScript's control-flow analysis walks back from every reference to an
// import through every earlier declaration of the module, a cost that grows with the square of its
// length and with how many imports a route names, whatever the framework's types.

/** One program to check: its files (name → source) and which of them are the roots. */
export interface Program {
  files: Record<string, string>;
  roots: string[];
}

/** The programs of one framework at one size, by role. */
export type Programs = Record<string, Program>;

export type Layout = "modules" | "file";

/** Routes per module in the "modules" layout, as in an app's router of one resource. */
const ROUTES_PER_MODULE = 50;

/** The modules' route ranges: [first, end) of each. */
function moduleRanges(size: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let start = 0; start < size; start += ROUTES_PER_MODULE) {
    ranges.push([start, Math.min(size, start + ROUTES_PER_MODULE)]);
  }
  return ranges;
}

const indexes = ([start, end]: [number, number]) => Array.from({ length: end - start }, (_, i) => start + i);

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

/**
 * Which routes an unruffled program declares: "plain" ones, the API the frameworks share, or the
 * same routes with "dependencies": each reads a header through one shared dependency and takes
 * more parameters (a GET four, a POST two and its body), as an app's routes usually do.
 */
export type RouteKind = "plain" | "dependencies";

/** The call's parameters of route `index`, as the testClient and the generated client take them. */
function callParams(index: number, kind: RouteKind): string {
  if (kind === "plain") return isGet(index) ? "{ id: 1, page: 2 }" : '{ body: { name: "n", price: 1 } }';
  return isGet(index)
    ? '{ id: 1, page: 2, size: 10, search: "s", x_tenant: "t" }'
    : '{ body: { name: "n", price: 1 }, dry_run: true, x_tenant: "t" }';
}

/**
 * unruffled: endpoints, the app, and testClient calls; the generated client is written by run.ts.
 * Roles `server`, `testClient` and `client` hold the plain routes; `depsServer`, `depsTestClient`
 * and `depsClient` the same with a shared dependency and more parameters.
 */
export function unruffledPrograms(size: number, layout: Layout = "modules"): Programs {
  const plain = unruffledRoutePrograms(size, layout, "plain");
  const withDependencies = unruffledRoutePrograms(size, layout, "dependencies");
  return {
    ...plain,
    depsServer: withDependencies.server!,
    depsTestClient: withDependencies.testClient!,
    depsClient: withDependencies.client!,
  };
}

function unruffledRoutePrograms(size: number, layout: Layout, kind: RouteKind): Programs {
  const imports = [
    'import { JsonResponse } from "unruffled/http";',
    `import { ${kind === "plain" ? "" : "dependency, "}endpoint, p, path } from "unruffled/route";`,
    'import { z } from "zod";',
  ];
  // The shared dependency: in a module of its own, or at the top of the one file.
  const tenant = [
    "export const tenant = dependency({",
    "  params: { x_tenant: p.Header(z.string()) },",
    "  resolve: (_request, { x_tenant }) => x_tenant,",
    "});",
  ];
  const tenantImport = kind === "plain" || layout === "file" ? [] : ['import { tenant } from "./shared.ts";'];
  const declaration = (index: number) => {
    if (kind === "plain") {
      return isGet(index)
        ? `${models(index)}
export const e${index} = endpoint({
  params: { id: p.Path(z.int()), page: p.Query(z.int(), { default: 1 }) },
  returns: [p.ResponseSpec({ model: Item${index} })],
  handler: (_request, { id, page }) => new JsonResponse({ id, name: \`item \${page}\`, tags: [] }),
});`
        : `${models(index)}
export const e${index} = endpoint({
  params: { body: p.Json(NewItem${index}) },
  returns: [p.ResponseSpec({ code: "201", model: Item${index} })],
  handler: (_request, { body }) => new JsonResponse({ id: 1, name: body.name, tags: [] }, { status: 201 }),
});`;
    }
    return isGet(index)
      ? `${models(index)}
export const e${index} = endpoint({
  params: {
    id: p.Path(z.int()),
    page: p.Query(z.int(), { default: 1 }),
    size: p.Query(z.int(), { default: 20 }),
    search: p.Query(z.string().optional()),
    owner: p.Depends(tenant),
  },
  returns: [p.ResponseSpec({ model: Item${index} })],
  handler: (_request, { id, page, owner }) => new JsonResponse({ id, name: \`\${owner} \${page}\`, tags: [] }),
});`
      : `${models(index)}
export const e${index} = endpoint({
  params: { body: p.Json(NewItem${index}), dry_run: p.Query(z.boolean(), { default: false }), owner: p.Depends(tenant) },
  returns: [p.ResponseSpec({ code: "201", model: Item${index} })],
  handler: (_request, { body, owner }) => new JsonResponse({ id: 1, name: \`\${owner} \${body.name}\`, tags: [] }, { status: 201 }),
});`;
  };
  const route = (index: number) =>
    isGet(index)
      ? `  path("/items${index}/{id}", { endpoint: e${index}, name: "r${index}" }),`
      : `  path("/items${index}", { endpoint: e${index}, methods: ["POST"], name: "r${index}" }),`;

  const serverFiles: Record<string, string> = {};
  // How the calls name endpoint e<index>, and the imports that lets them.
  let endpointName: (index: number) => string;
  let callImports: string[];
  if (layout === "file") {
    const all = indexes([0, size]);
    serverFiles["server.ts"] = [
      'import { createApp } from "unruffled";',
      ...imports,
      "",
      ...(kind === "plain" ? [] : [...tenant, ""]),
      ...all.map(declaration),
      "",
      "export const app = createApp({ routes: [",
      ...all.map(route),
      "] });",
      "",
    ].join("\n");
    endpointName = (index) => `api.e${index}`;
    callImports = ['import * as api from "./server.ts";'];
  } else {
    const ranges = moduleRanges(size);
    if (kind !== "plain") {
      serverFiles["shared.ts"] = [
        'import { dependency, p } from "unruffled/route";',
        'import { z } from "zod";',
        "",
        ...tenant,
        "",
      ].join("\n");
      imports[1] = 'import { endpoint, p, path } from "unruffled/route";';
    }
    ranges.forEach((range, module) => {
      serverFiles[`routes${module}.ts`] = [
        ...imports,
        ...tenantImport,
        "",
        ...indexes(range).map(declaration),
        "",
        "export const routes = [",
        ...indexes(range).map(route),
        "];",
        "",
      ].join("\n");
    });
    serverFiles["server.ts"] = [
      'import { createApp } from "unruffled";',
      ...ranges.map((_, module) => `import { routes as routes${module} } from "./routes${module}.ts";`),
      "",
      `export const app = createApp({ routes: [${ranges.map((_, module) => `...routes${module}`).join(", ")}] });`,
      "",
    ].join("\n");
    endpointName = (index) => `routes${Math.floor(index / ROUTES_PER_MODULE)}.e${index}`;
    callImports = ranges.map((_, module) => `import * as routes${module} from "./routes${module}.ts";`);
  }

  const testCalls = [
    'import { testClient } from "unruffled/testing";',
    'import { app } from "./server.ts";',
    ...callImports,
    "",
    "const client = testClient(app);",
    "export const seen: unknown[] = [];",
    ...inFunctions(size, (index) => [
      `  const a${index} = await client.call(${endpointName(index)}, ${callParams(index, kind)});`,
      `  if (a${index}.status === ${isGet(index) ? 200 : 201}) ${use(`a${index}.json().name`)}`,
    ]),
    "",
  ];

  const clientCalls = [
    'import { createClient } from "./client.generated.ts";',
    "",
    'const client = createClient({ baseUrl: "http://127.0.0.1:8000" });',
    "export const seen: unknown[] = [];",
    ...inFunctions(size, (index) => [
      `  const a${index} = await client.r${index}(${callParams(index, kind)});`,
      `  if (a${index}.kind === "documented" && a${index}.status === ${isGet(index) ? 200 : 201}) ${use(`a${index}.body.name`)}`,
    ]),
    "",
  ];

  return {
    server: { files: serverFiles, roots: ["server.ts"] },
    testClient: { files: { ...serverFiles, "calls.ts": testCalls.join("\n") }, roots: ["calls.ts"] },
    // client.generated.ts is added by run.ts, from the app that server.ts builds.
    client: { files: { "calls.ts": clientCalls.join("\n") }, roots: ["calls.ts"] },
    baseline: { files: { "empty.ts": "export {};\n" }, roots: ["empty.ts"] },
  };
}

// Hono's recommended shape for a large app: sub-apps of chained routes, mounted with route(); in
// the "file" layout the sub-apps are of 50 routes too.
export function honoPrograms(size: number, layout: Layout = "modules"): Programs {
  const imports = [
    'import { Hono } from "hono";',
    'import { validator } from "hono/validator";',
    'import { z } from "zod";',
  ];
  const chained = (index: number) =>
    isGet(index)
      ? `  .get(
    "/items${index}/:id",
    validator("param", (value) => Params${index}.parse(value)),
    validator("query", (value) => Query${index}.parse(value)),
    (c) => {
      const item: z.output<typeof Item${index}> = { id: c.req.valid("param").id, name: \`item \${c.req.valid("query").page}\`, tags: [] };
      return c.json(item, 200);
    },
  )`
      : `  .post("/items${index}", validator("json", (value) => NewItem${index}.parse(value)), (c) => {
    const item: z.output<typeof Item${index}> = { id: 1, name: c.req.valid("json").name, tags: [] };
    return c.json(item, 201);
  })`;
  const schemas = (index: number) =>
    isGet(index)
      ? `${models(index)}
const Params${index} = z.object({ id: z.coerce.number().int() });
const Query${index} = z.object({ page: z.coerce.number().int().default(1) });`
      : models(index);
  const group = (name: string, range: [number, number]) => [
    ...indexes(range).map(schemas),
    `${name} = new Hono()\n${indexes(range).map(chained).join("\n")};`,
  ];

  const ranges = moduleRanges(size);
  const mounted = (names: string[]) =>
    `export const app = new Hono()\n${names.map((name) => `  .route("/", ${name})`).join("\n")};`;
  const files: Record<string, string> = {};
  if (layout === "file") {
    files["server.ts"] = [
      ...imports,
      "",
      ...ranges.flatMap((range, module) => group(`const group${module}`, range)),
      "",
      mounted(ranges.map((_, module) => `group${module}`)),
      "export type AppType = typeof app;",
      "",
    ].join("\n");
  } else {
    ranges.forEach((range, module) => {
      files[`group${module}.ts`] = [...imports, "", ...group("export const group", range), ""].join("\n");
    });
    files["server.ts"] = [
      'import { Hono } from "hono";',
      ...ranges.map((_, module) => `import { group as group${module} } from "./group${module}.ts";`),
      "",
      mounted(ranges.map((_, module) => `group${module}`)),
      "export type AppType = typeof app;",
      "",
    ].join("\n");
  }

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
  return {
    server: { files, roots: ["server.ts"] },
    client: { files: { ...files, "calls.ts": calls.join("\n") }, roots: ["calls.ts"] },
  };
}

export function orpcPrograms(size: number, layout: Layout = "modules"): Programs {
  const imports = ['import { os } from "@orpc/server";', 'import { z } from "zod";'];
  const procedure = (index: number) =>
    isGet(index)
      ? `${models(index)}
export const r${index} = os
  .route({ method: "GET", path: "/items${index}/{id}" })
  .input(z.object({ id: z.coerce.number().int(), page: z.coerce.number().int().default(1) }))
  .output(Item${index})
  .handler(({ input }) => ({ id: input.id, name: \`item \${input.page}\`, tags: [] }));`
      : `${models(index)}
export const r${index} = os
  .route({ method: "POST", path: "/items${index}", successStatus: 201 })
  .input(NewItem${index})
  .output(Item${index})
  .handler(({ input }) => ({ id: 1, name: input.name, tags: [] }));`;
  const router = (range: [number, number]) =>
    `export const router = { ${indexes(range)
      .map((index) => `r${index}`)
      .join(", ")} };`;

  const files: Record<string, string> = {};
  if (layout === "file") {
    files["server.ts"] = [
      ...imports,
      "",
      ...indexes([0, size]).map(procedure),
      "",
      router([0, size]),
      "",
    ].join("\n");
  } else {
    const ranges = moduleRanges(size);
    ranges.forEach((range, module) => {
      files[`router${module}.ts`] = [
        ...imports,
        "",
        ...indexes(range).map(procedure),
        "",
        router(range),
        "",
      ].join("\n");
    });
    files["server.ts"] = [
      ...ranges.map((_, module) => `import { router as router${module} } from "./router${module}.ts";`),
      "",
      `export const router = { ${ranges.map((_, module) => `...router${module}`).join(", ")} };`,
      "",
    ].join("\n");
  }
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
  return {
    server: { files, roots: ["server.ts"] },
    client: { files: { ...files, "calls.ts": calls.join("\n") }, roots: ["calls.ts"] },
  };
}
