// `unruffled client`: the module it writes, what it refuses, and --check.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createApp } from "unruffled";
import { bindOperations } from "unruffled/client";
import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { generateClient } from "../../src/client-generator/index.ts";
import { generateOpenApi } from "../../src/openapi/index.ts";
import { runCli } from "../cli/support/cli-process.ts";
import { clientFixtureApp } from "../client/fixture-client-app.ts";

const FIXTURE_APP = fileURLToPath(new URL("../client/fixture-client-app.ts", import.meta.url));
const DUPLICATES = fileURLToPath(new URL("./fixtures-duplicate-names.ts", import.meta.url));

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "unruffled-client-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("the generated module", () => {
  const source = generateClient(clientFixtureApp());

  it("declares one member per route, typed by name, with its Params and Result types", () => {
    expect(source).toContain(
      "  get_student(params: GetStudentParams, options?: CallOptions): Promise<GetStudentResult>;",
    );
    expect(source).toContain(
      [
        "export type GetStudentResult =",
        '  | Answer<200, "application/json", Student>',
        '  | Answer<404, "application/json", NotFound>',
        '  | Answer<422, "application/json", HTTPValidationError>',
        "  | Unexpected;",
      ].join("\n"),
    );
  });

  it("prints the models as plain types from the document's JSON Schemas, dates as strings", () => {
    expect(source).toContain(
      [
        "/** Someone enrolled */",
        "export interface Student {",
        "  id: number;",
        "  name: string;",
        "  nickname: string | null;",
        "  joined: string;",
        "}",
      ].join("\n"),
    );
  });

  it("adds the answers the framework gives: 413 and 415 to a body, 401 and 403 to a scheme", () => {
    expect(source).toContain(
      [
        "export type UploadResult =",
        '  | Answer<200, "text/plain", string>',
        '  | Answer<413, "application/json", HTTPError>',
        '  | Answer<415, "application/json", HTTPError>',
        '  | Answer<422, "application/json", HTTPValidationError>',
        "  | Unexpected;",
      ].join("\n"),
    );
    expect(source).toMatch(
      /Answer<401, "application\/json", HTTPError>\n {2}\| Answer<403, "application\/json", HTTPError>/,
    );
  });

  it("types the statuses the document lists for each operation, and no other", () => {
    const document = generateOpenApi(clientFixtureApp());
    const fromClient: Record<string, string[]> = {};
    const fromDocument: Record<string, string[]> = {};
    for (const [, member, method, target, union] of source.matchAll(
      /^\/\/ (\w+): ([A-Z]+) (\S+)\n[\s\S]*?export type \w+Result =\n([\s\S]*?)\| Unexpected;\n/gm,
    )) {
      const key = `${member} ${method} ${target}`;
      fromClient[key] = [...union!.matchAll(/Answer<(\d{3})/g)].map((match) => match[1]!);
      const operation = document.paths[target!]![method!.toLowerCase() as "get"]!;
      fromDocument[key] = Object.keys(operation.responses);
    }
    expect(fromClient).toEqual(fromDocument);
    // The answers the framework adds are in both: a body's 413 and 415, a scheme's 401 and 403.
    expect(fromDocument["upload POST /upload"]).toEqual(["200", "413", "415", "422"]);
    expect(fromDocument["admin_only GET /admin"]).toEqual(["200", "401", "403"]);
    expect(Object.keys(fromClient)).toHaveLength(11);
  });

  it("types an event stream's data, and files as Blobs", () => {
    expect(source).toContain("  | EventsAnswer<200, Tick>\n");
    expect(source).toContain("  avatar: Blob;\n  attachments?: readonly Blob[];\n");
  });

  it("says when a member's name is derived, the route having none", () => {
    expect(source).toContain(
      "  /** GET /misbehave. The route has no name: this one is derived from its method and path. */\n  get_misbehave(",
    );
  });

  it("imports nothing but the unruffled/client runtime", () => {
    expect(source.match(/ from "[^"]+";$/gm)).toEqual([' from "unruffled/client";']);
  });

  it("splits a model with a date used both ways into <Name>_Input and <Name>_Output, a default optional in the input", () => {
    const Item = z
      .object({ name: z.string(), added: z.date(), size: z.int().default(1) })
      .meta({ id: "Item" });
    const put = endpoint({
      params: { item: p.Json(Item) },
      returns: [p.ResponseSpec({ model: Item })],
      handler: (_request, { item }) => new JsonResponse(item),
    });
    const generated = generateClient(
      createApp({ routes: [path("/items", { endpoint: put, methods: ["PUT"], name: "put_item" })] }),
    );
    expect(generated).toContain(
      [
        "export interface Item_Input {",
        "  name: string;",
        "  added: string | Date;",
        "  size?: number;",
        "}",
        "",
        "export interface Item_Output {",
        "  name: string;",
        "  added: string;",
        "  size: number;",
        "}",
      ].join("\n"),
    );
    expect(generated).toContain("export interface PutItemParams {\n  item: Item_Input;\n}");
    expect(generated).toContain('  | Answer<200, "application/json", Item_Output>\n');
    expect(generated).not.toMatch(/interface Item \{/);
  });

  it("calls the first method of a route that has several, and leaves out a route left out of the document", () => {
    const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hi") });
    const app = createApp({
      routes: [
        path("/both", { endpoint: hello, methods: ["PUT", "PATCH"], name: "replace" }),
        path("/hidden", { endpoint: hello, name: "hidden", includeInSchema: false }),
        path("/internal", { includeInSchema: false, routes: [path("/hidden-too", { endpoint: hello })] }),
      ],
    });
    const generated = generateClient(app);
    expect(generated.match(/^"\w+": \{"method":"\w+","path":"[^"]+"/gm)).toEqual([
      '"replace": {"method":"PUT","path":"/both"',
    ]);
    expect(generated).not.toContain("hidden");
  });

  it("sends each header under the name the document shows and the endpoint reads, camelCase included", async () => {
    const Tracing = z.object({ XRequestId: z.string(), XForwardedFor: z.string(), contentMD5: z.string() });
    const app = createApp({
      routes: [
        path("/traced", {
          name: "traced",
          endpoint: endpoint({
            params: {
              tracing: p.Header(Tracing),
              ETag: p.Header(z.string()),
              x_api_key: p.Header(z.string()),
            },
            returns: JsonResponse,
            handler: (_request, values) => new JsonResponse(values),
          }),
        }),
      ],
    });
    const names = ["x-request-id", "x-forwarded-for", "content-md5", "etag", "x-api-key"];
    const operation = generateOpenApi(app).paths["/traced"]!.get!;
    expect(operation.parameters!.map((parameter) => ("name" in parameter ? parameter.name : ""))).toEqual(
      names,
    );
    const plans = JSON.parse(/JSON\.parse\(`([\s\S]*?)`\)/.exec(generateClient(app))![1]!);
    expect(plans.traced.params).toEqual([
      {
        name: "tracing",
        in: "header",
        fields: { XRequestId: "x-request-id", XForwardedFor: "x-forwarded-for", contentMD5: "content-md5" },
      },
      { name: "ETag", in: "header", wire: "etag" },
      { name: "x_api_key", in: "header", wire: "x-api-key" },
    ]);
    const server = await startServer(app);
    try {
      const values = {
        tracing: { XRequestId: "r1", XForwardedFor: "10.0.0.1", contentMD5: "bWQ1" },
        ETag: '"v1"',
        x_api_key: "k",
      };
      const client = bindOperations<{ traced(params: object): Promise<unknown> }>(plans, {
        baseUrl: server.url,
      });
      expect(await client.traced(values)).toMatchObject({ kind: "documented", status: 200, body: values });
    } finally {
      await server.close();
    }
  });

  it('types a nullable value read from text without null, and sends no text "null" for a null given anyway', async () => {
    const Filter = z.object({
      kind: z.enum(["a", "b"]).nullish(),
      note: z.string().nullable().default(null),
    });
    const app = createApp({
      routes: [
        path("/search", {
          name: "search",
          endpoint: endpoint({
            params: {
              q: p.Query(z.string().nullable()),
              filter: p.Query(Filter.nullable()),
              token: p.Header(z.string().nullish()),
            },
            returns: JsonResponse,
            handler: (_request, values) => new JsonResponse(values),
          }),
        }),
      ],
    });
    const generated = generateClient(app);
    expect(generated).toContain(
      [
        "export interface SearchParams {",
        "  q: string;",
        "  filter?: {",
        '    kind?: "a" | "b";',
        "    note?: string;",
        "  };",
        "  token?: string;",
        "}",
      ].join("\n"),
    );
    const plans = JSON.parse(/JSON\.parse\(`([\s\S]*?)`\)/.exec(generated)![1]!);
    const server = await startServer(app);
    try {
      const client = bindOperations<{ search(params: object): Promise<unknown> }>(plans, {
        baseUrl: server.url,
      });
      // An untyped caller's nulls: left out, as undefined is, never sent as the text "null".
      expect(await client.search({ q: "x", filter: null, token: null })).toMatchObject({
        kind: "documented",
        status: 200,
        body: { q: "x", filter: { note: null } },
      });
      expect(await client.search({ q: "x", filter: { kind: null, note: null } })).toMatchObject({
        status: 200,
        body: { q: "x", filter: { note: null } },
      });
    } finally {
      await server.close();
    }
  });

  it("types a model read from text by the names it reads: a loose object's other keys are not sent, nor typed", () => {
    const Loose = z.looseObject({ a: z.int() });
    const Open = z.object({ a: z.int() }).catchall(z.string());
    const generated = generateClient(
      createApp({
        routes: [
          path("/loose", {
            name: "loose",
            endpoint: endpoint({
              params: { filter: p.Query(Loose), extra: p.Header(Open) },
              returns: JsonResponse,
              handler: (_request, values) => new JsonResponse(values),
            }),
          }),
          path("/loose", {
            name: "loose_body",
            methods: ["POST"],
            endpoint: endpoint({
              params: { body: p.Json(Loose) },
              returns: JsonResponse,
              handler: (_request, values) => new JsonResponse(values),
            }),
          }),
        ],
      }),
    );
    expect(generated).toContain(
      "export interface LooseParams {\n  filter: {\n    a: number;\n  };\n  extra: {\n    a: number;\n  };\n}",
    );
    // A JSON body carries every key.
    expect(generated).toContain(
      "export interface LooseBodyParams {\n  body: {\n    a: number;\n    [key: string]: unknown;\n  };\n}",
    );
  });

  it("fills a placeholder no parameter reads, and a {name:path} one with its slashes kept and the rest encoded", async () => {
    const seen = endpoint({
      params: { file_path: z.string() },
      returns: JsonResponse,
      handler: (request, values) => new JsonResponse({ values, pathParams: request.pathParams }),
    });
    const app = createApp({
      routes: [path("/shelves/{shelf}/files/{file_path:path}", { endpoint: seen, name: "read_file" })],
    });
    const generated = generateClient(app);
    expect(generated).toContain(
      ["export interface ReadFileParams {", "  file_path: string;", "  shelf: string;", "}"].join("\n"),
    );
    const plans = JSON.parse(/JSON\.parse\(`([\s\S]*?)`\)/.exec(generated)![1]!);
    expect(plans.read_file.path).toBe("/shelves/{shelf}/files/{file_path:path}");
    const server = await startServer(app);
    try {
      const client = bindOperations<{ read_file(params: object): Promise<unknown> }>(plans, {
        baseUrl: server.url,
      });
      expect(await client.read_file({ shelf: "a/b", file_path: "docs/a b?#%.txt" })).toMatchObject({
        kind: "documented",
        status: 200,
        body: {
          values: { file_path: "docs/a b?#%.txt" },
          pathParams: { shelf: "a/b", file_path: "docs/a b?#%.txt" },
        },
      });
    } finally {
      await server.close();
    }
  });

  it("refuses two routes with one name, naming them", () => {
    const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hi") });
    const app = createApp({
      routes: [
        path("/a", { endpoint: hello, name: "greet", operationId: "greet_a" }),
        path("/b", { endpoint: hello, methods: ["POST"], name: "greet", operationId: "greet_b" }),
      ],
    });
    expect(() => generateClient(app)).toThrow(
      'A client has one member per route name, and these routes share a name: "greet": GET /a and POST /b. Give each route its own name (path(..., { name })).',
    );
  });
});

// FastAPI's generate_unique_id keeps letters beyond ASCII (Python's \W is Unicode-aware): so does a
// derived name, where it was "get_caf" for /café, one name for /café and /cafè.
describe("a route without a name, at a path of letters beyond ASCII", () => {
  // Inside the package, so that the module resolves unruffled/client as an app's would.
  const work = fileURLToPath(new URL(`./.schema-agreement-names-${process.pid}/`, import.meta.url));
  afterAll(() => rm(work, { recursive: true, force: true }));

  it("is named by its letters in the app, the document and the client, which compiles", async () => {
    const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hi") });
    const app = createApp({
      routes: [
        path("/café", { endpoint: hello }),
        path("/cafè", { endpoint: hello }),
        path("/élèves/{id}", { endpoint: hello }),
      ],
    });
    expect(app.urlPathFor("get_café")).toBe("/caf%C3%A9");
    expect(app.urlPathFor("get_élèves_id", { id: 7 })).toBe("/%C3%A9l%C3%A8ves/7");
    expect(
      Object.entries(app.openapi().paths).map(([key, item]) => [
        key,
        (item as { get: { operationId: string } }).get.operationId,
      ]),
    ).toEqual([
      ["/caf%C3%A9", "get_café"],
      ["/caf%C3%A8", "get_cafè"],
      ["/%C3%A9l%C3%A8ves/{id}", "get_élèves_id"],
    ]);
    const generated = generateClient(app);
    expect(generated).toContain(
      '  "get_café"(params?: GetCaféParams, options?: CallOptions): Promise<GetCaféResult>;',
    );
    expect(generated).toContain(
      '  "get_élèves_id"(params: GetÉlèvesIdParams, options?: CallOptions): Promise<GetÉlèvesIdResult>;',
    );
    await mkdir(work, { recursive: true });
    await writeFile(join(work, "client.ts"), generated);
    await writeFile(
      join(work, "calls.ts"),
      [
        'import type { Client } from "./client.ts";',
        "export async function callAll(client: Client): Promise<string[]> {",
        '  const answers = [await client.get_café(), await client.get_cafè(), await client.get_élèves_id({ id: "7" })];',
        "  return answers.map((answer) => answer.kind);",
        "}",
        "",
      ].join("\n"),
    );
    await writeFile(
      join(work, "tsconfig.json"),
      JSON.stringify({
        extends: "../../../../../tsconfig.base.json",
        compilerOptions: { noEmit: true },
        files: ["client.ts", "calls.ts"],
      }),
    );
    const tsc = fileURLToPath(new URL("../../../../node_modules/typescript/bin/tsc", import.meta.url));
    const output = await new Promise<string>((resolve) => {
      execFile(process.execPath, [tsc, "-p", work, "--pretty", "false"], (_error, stdout, stderr) =>
        resolve(stdout + stderr),
      );
    });
    expect(output.split("\n").filter((line) => line !== "")).toEqual([]);
  }, 120_000);
});

describe("unruffled client", () => {
  it("writes the module to --out", async () => {
    const out = join(folder, "client.ts");
    const result = await runCli("client", FIXTURE_APP, "--out", out);
    expect(result).toEqual({ code: 0, stdout: "", stderr: `Wrote the client to ${out}\n` });
    expect(await readFile(out, "utf8")).toBe(generateClient(clientFixtureApp()));
  });

  it("says it cannot write --out into a folder that does not exist, without a stack, exit code 1", async () => {
    const out = join(folder, "missing", "client.ts");
    expect(await runCli("client", FIXTURE_APP, "--out", out)).toEqual({
      code: 1,
      stdout: "",
      stderr: `unruffled client: Cannot write ${out}: its folder does not exist.\n`,
    });
  });

  it("--check passes on a fresh file, and fails with exit code 1 on a stale or missing one", async () => {
    const out = join(folder, "checked.ts");
    await runCli("client", FIXTURE_APP, "--out", out);
    expect(await runCli("client", FIXTURE_APP, "--out", out, "--check")).toEqual({
      code: 0,
      stdout: "",
      stderr: `${out} is up to date.\n`,
    });
    await writeFile(out, `${await readFile(out, "utf8")}// edited\n`);
    expect(await runCli("client", FIXTURE_APP, "--out", out, "--check")).toEqual({
      code: 1,
      stdout: "",
      stderr: `unruffled client: ${out} is not the client the app generates now; write it again: unruffled client ${FIXTURE_APP} --out ${out}\n`,
    });
    expect(await readFile(out, "utf8")).toMatch(/\/\/ edited\n$/);
    const missing = join(folder, "missing.ts");
    expect(await runCli("client", FIXTURE_APP, "--out", missing, "--check")).toEqual({
      code: 1,
      stdout: "",
      stderr: `unruffled client: ${missing} does not exist; write it without --check.\n`,
    });
  });

  it("needs --out", async () => {
    expect(await runCli("client", FIXTURE_APP)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "Give the file to write with --out <file>.\nUsage: unruffled client <app module> [--export <name>] --out <file> [--check]\n",
    });
  });

  it("refuses routes that share a name, naming them, with exit code 1", async () => {
    const result = await runCli("client", DUPLICATES, "--out", join(folder, "never.ts"));
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'unruffled client: ValueError: A client has one member per route name, and these routes share a name: "hello": GET /hello and POST /hi. Give each route its own name (path(..., { name })).\n',
    });
  });
});
