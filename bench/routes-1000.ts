// Cost of a large app: build 1,000 routes (a mixture of path, query and JSON-body parameters) and
// generate the OpenAPI document with unruffled, versus registering the same 1,000 routes with JSON
// schemas in Fastify and `await fastify.ready()` (which compiles every validator and serializer).
// Each measurement runs in a fresh child process (module loading excluded: only the building is
// timed); repetitions are interleaved and the median is reported.
//
//   npm run bench:routes                  (5 repetitions; --reps N, --routes N; env BENCH_REPS)
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

type ChildResult = {
  framework: "fastify" | "unruffled";
  routes: number;
  buildMs: number;
  /** time to generate the OpenAPI document; null when the framework offers no generator */
  docMs: number | null;
  docPaths: number | null;
  /** heap used after building (and generating), minus before, after full GCs, in MB */
  heapMB: number;
  /** the same, measured after building and before the document */
  heapBuildMB: number;
  rssMB: number;
};

const SELF = fileURLToPath(import.meta.url);

// kind 0: GET  /gG/rI/items/{item_id}?verbose=   path int ≥ 1 + query boolean
// kind 1: GET  /gG/rI/search?q=&page=&size=      three query params with defaults and bounds
// kind 2: POST /gG/rI/bind                       JSON body model (two positive ints, an optional string)
const GROUP_SIZE = 50;
const kindOf = (i: number) => i % 3;

function heapUsedMB(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function buildFastify(
  routes: number,
): Promise<Omit<ChildResult, "heapMB" | "heapBuildMB" | "rssMB"> & { heapAfterBuild: number }> {
  const { default: Fastify } = await import("fastify");
  const envelope = {
    type: "object",
    properties: {
      code: { type: "integer" },
      message: { type: "string" },
      data: {},
    },
  } as const;
  const started = performance.now();
  const app = Fastify({ logger: false });
  for (let i = 0; i < routes; i++) {
    const prefix = `/g${Math.floor(i / GROUP_SIZE)}/r${i}`;
    const handler = async () => ({ code: 0, message: "success", data: null });
    const response = { 200: envelope };
    switch (kindOf(i)) {
      case 0:
        app.get(
          `${prefix}/items/:item_id`,
          {
            schema: {
              params: {
                type: "object",
                required: ["item_id"],
                properties: { item_id: { type: "integer", minimum: 1 } },
              },
              querystring: {
                type: "object",
                properties: { verbose: { type: "boolean", default: false } },
              },
              response,
            },
          },
          handler,
        );
        break;
      case 1:
        app.get(
          `${prefix}/search`,
          {
            schema: {
              querystring: {
                type: "object",
                properties: {
                  q: { type: "string", maxLength: 50, default: "" },
                  page: { type: "integer", minimum: 1, default: 1 },
                  size: { type: "integer", minimum: 1, maximum: 100, default: 10 },
                },
              },
              response,
            },
          },
          handler,
        );
        break;
      default:
        app.post(
          `${prefix}/bind`,
          {
            schema: {
              body: {
                type: "object",
                required: ["student_id", "course_id"],
                properties: {
                  student_id: { type: "integer", exclusiveMinimum: 0 },
                  course_id: { type: "integer", exclusiveMinimum: 0 },
                  note: { type: "string", maxLength: 200 },
                },
              },
              response,
            },
          },
          handler,
        );
    }
  }
  await app.ready();
  const buildMs = performance.now() - started;
  keep.push(app);
  const heapAfterBuild = heapUsedMB();
  return { framework: "fastify", routes, buildMs, docMs: null, docPaths: null, heapAfterBuild };
}

/** The OpenAPI generator of unruffled, whichever form it takes: `app.openapi()` or `generateOpenApi(app)`. */
async function findDocumentGenerator(app: object): Promise<(() => unknown) | null> {
  const method = (app as { openapi?: unknown }).openapi;
  if (typeof method === "function") return () => method.call(app);
  // imported by a computed name: the module may not exist in this version of the framework
  const specifier = "unruffled/openapi";
  try {
    const module = (await import(specifier)) as { generateOpenApi?: unknown };
    const generate = module.generateOpenApi;
    if (typeof generate === "function") return () => generate(app);
  } catch {
    // no generator module
  }
  return null;
}

async function buildUnruffled(
  routes: number,
): Promise<Omit<ChildResult, "heapMB" | "heapBuildMB" | "rssMB"> & { heapAfterBuild: number }> {
  const { createApp } = await import("unruffled");
  const { JsonResponse } = await import("unruffled/http");
  const { endpoint, p, path } = await import("unruffled/route");
  const { z } = await import("zod");
  const Envelope = z.object({ code: z.int(), message: z.string(), data: z.unknown() });
  const started = performance.now();
  const groups: ReturnType<typeof path>[] = [];
  let members: ReturnType<typeof path>[] = [];
  for (let i = 0; i < routes; i++) {
    const returns = [p.ResponseSpec({ model: Envelope })];
    const answer = () => new JsonResponse({ code: 0, message: "success", data: null });
    const name = `op_${i}`;
    switch (kindOf(i)) {
      case 0:
        members.push(
          path(`/r${i}/items/{item_id}`, {
            name,
            endpoint: endpoint({
              params: {
                item_id: p.Path(z.int(), { ge: 1 }),
                verbose: p.Query(z.boolean(), { default: false }),
              },
              returns,
              handler: answer,
            }),
          }),
        );
        break;
      case 1:
        members.push(
          path(`/r${i}/search`, {
            name,
            endpoint: endpoint({
              params: {
                q: p.Query(z.string(), { default: "", maxLength: 50 }),
                page: p.Query(z.int(), { default: 1, ge: 1 }),
                size: p.Query(z.int(), { default: 10, ge: 1, le: 100 }),
              },
              returns,
              handler: answer,
            }),
          }),
        );
        break;
      default: {
        const BindRequest = z.object({
          student_id: z.int().gt(0),
          course_id: z.int().gt(0),
          note: z.string().max(200).optional(),
        });
        members.push(
          path(`/r${i}/bind`, {
            name,
            methods: ["POST"],
            endpoint: endpoint({ params: { body: p.Json(BindRequest) }, returns, handler: answer }),
          }),
        );
      }
    }
    if (members.length === GROUP_SIZE || i === routes - 1) {
      groups.push(path(`/g${Math.floor(i / GROUP_SIZE)}`, { routes: members }));
      members = [];
    }
  }
  const app = createApp({ settings: {}, routes: groups });
  const buildMs = performance.now() - started;
  keep.push(app);
  const heapAfterBuild = heapUsedMB();

  const generate = await findDocumentGenerator(app);
  let docMs: number | null = null;
  let docPaths: number | null = null;
  if (generate) {
    const docStarted = performance.now();
    const document = generate();
    docMs = performance.now() - docStarted;
    keep.push(document);
    const paths = (document as { paths?: Record<string, unknown> } | null)?.paths;
    docPaths = paths ? Object.keys(paths).length : null;
  }
  return { framework: "unruffled", routes, buildMs, docMs, docPaths, heapAfterBuild };
}

/** Keeps what was built reachable, so that the heap delta counts it. */
const keep: unknown[] = [];

async function child(framework: string, routes: number): Promise<void> {
  // warm the module cache and lazy internals outside the measurement: load the modules first
  if (framework === "fastify") await import("fastify");
  else
    await Promise.all([
      import("unruffled"),
      import("unruffled/route"),
      import("unruffled/http"),
      import("zod"),
    ]);
  const before = heapUsedMB();
  const result = framework === "fastify" ? await buildFastify(routes) : await buildUnruffled(routes);
  const heapMB = heapUsedMB() - before;
  const { heapAfterBuild, ...rest } = result;
  const output: ChildResult = {
    ...rest,
    heapMB,
    heapBuildMB: heapAfterBuild - before,
    rssMB: process.memoryUsage().rss / 1024 / 1024,
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

function runChild(framework: string, routes: number): ChildResult | string {
  const outcome = spawnSync(
    process.execPath,
    ["--expose-gc", SELF, "--child", framework, "--routes", String(routes)],
    { encoding: "utf8", timeout: 120_000 },
  );
  const line = outcome.stdout.trim().split("\n").pop() ?? "";
  if (outcome.status !== 0 || !line.startsWith("{")) {
    const stderr = outcome.stderr
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    return stderr.find((l) => /^(\w*Error\b|Error \[)/.test(l)) ?? stderr.slice(-2).join(" | ") ?? "failed";
  }
  return JSON.parse(line) as ChildResult;
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      child: { type: "string" },
      routes: { type: "string" },
      reps: { type: "string" },
    },
  });
  const routes = Number(values.routes ?? process.env.BENCH_ROUTES ?? 1000);
  if (values.child) return child(values.child, routes);

  const reps = Math.max(1, Number(values.reps ?? process.env.BENCH_REPS ?? 5));
  const frameworks = ["fastify", "unruffled"] as const;
  const results: Record<string, ChildResult[]> = { fastify: [], unruffled: [] };
  const failures: Record<string, string> = {};
  console.log(
    `routes-1000: ${routes} routes, ${reps} repetitions, each in a fresh process (Node ${process.version})`,
  );
  for (let rep = 1; rep <= reps; rep++) {
    const order = rep % 2 ? frameworks : [...frameworks].reverse();
    for (const framework of order) {
      if (failures[framework]) continue;
      const result = runChild(framework, routes);
      if (typeof result === "string") {
        failures[framework] = result;
        console.log(`  ${framework}: failed — ${result}`);
        continue;
      }
      results[framework]?.push(result);
      console.log(
        `  rep ${rep} ${framework.padEnd(9)} build ${result.buildMs.toFixed(1)} ms` +
          (result.docMs === null
            ? ""
            : `, document ${result.docMs.toFixed(1)} ms (${result.docPaths ?? "?"} paths)`) +
          `, heap +${result.heapMB.toFixed(1)} MB`,
      );
    }
  }

  const summary = Object.fromEntries(
    frameworks.map((framework) => {
      const runs = results[framework] ?? [];
      const docs = runs.flatMap((r) => (r.docMs === null ? [] : [r.docMs]));
      return [
        framework,
        {
          runs: runs.length,
          buildMs: median(runs.map((r) => r.buildMs)),
          docMs: docs.length ? median(docs) : null,
          totalMs: median(runs.map((r) => r.buildMs + (r.docMs ?? 0))),
          docPaths: runs[0]?.docPaths ?? null,
          heapMB: median(runs.map((r) => r.heapMB)),
          heapBuildMB: median(runs.map((r) => r.heapBuildMB)),
          rssMB: median(runs.map((r) => r.rssMB)),
        },
      ];
    }),
  );
  const f = summary.fastify;
  const u = summary.unruffled;
  const ms = (v: number | null | undefined) =>
    v === null || v === undefined || Number.isNaN(v) ? "n/a" : v.toFixed(1);
  const x = (a: number | null | undefined, b: number | null | undefined) =>
    a === null || a === undefined || b === null || b === undefined || !(b > 0) || Number.isNaN(a)
      ? "n/a"
      : `${(a / b).toFixed(2)}×`;
  const rows = [
    ["", "build ms", "OpenAPI doc ms", "build + doc ms", "heap MB build", "heap MB + doc", "RSS MB"],
    [
      "Fastify 5 (register + ready)",
      ms(f?.buildMs),
      "n/a",
      ms(f?.totalMs),
      ms(f?.heapBuildMB),
      ms(f?.heapMB),
      ms(f?.rssMB),
    ],
    [
      "unruffled (createApp + document)",
      ms(u?.buildMs),
      ms(u?.docMs),
      ms(u?.totalMs),
      ms(u?.heapBuildMB),
      ms(u?.heapMB),
      ms(u?.rssMB),
    ],
    [
      "unruffled / Fastify",
      x(u?.buildMs, f?.buildMs),
      "",
      x(u?.totalMs, f?.totalMs),
      x(u?.heapBuildMB, f?.heapBuildMB),
      x(u?.heapMB, f?.heapMB),
      x(u?.rssMB, f?.rssMB),
    ],
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  console.log("");
  for (const row of rows) {
    console.log(
      `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")}`,
    );
  }
  console.log(
    "\n  median of the repetitions; heap = heapUsed after building minus before, after full GCs, with the" +
      "\n  app kept alive; RSS = whole child process after building. Fastify has no document generator" +
      "\n  without @fastify/swagger, so its column counts building only.",
  );
  if (u && u.docMs === null && u.runs > 0) {
    console.log("  unruffled: OpenAPI document generation not available in this version (n/a).");
  }
  for (const [framework, reason] of Object.entries(failures))
    console.log(`  ${framework}: skipped — ${reason}`);
}

await main();
