// Server, OpenAPI document and generated client agree on every schema of schema-cases.ts, declared
// as a JSON body, a response model, a query parameter and a query model's field: the app refuses
// the declaration when it is built (naming the endpoint and the parameter), or the document is
// valid, says what the server accepts and answers, and the generated client compiles and its
// calls, values and answers included, fit its types.
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { type App, createApp, TypeHintRequired, ValueError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import type { OpenApiDocument } from "unruffled/openapi";
import { endpoint, p, path } from "unruffled/route";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { generateClient } from "../../src/client-generator/index.ts";
import { SCHEMA_CASES, type SchemaCase, USES, type Use } from "./schema-cases.ts";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
// Inside the package, so that the generated module resolves unruffled/client as an app's would.
const WORK = fileURLToPath(new URL(`./.schema-agreement-${process.pid}/`, import.meta.url));

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const METHOD: Record<Use, string> = { body: "POST", answer: "GET", query: "GET", field: "GET" };

type Values = Record<string, unknown>;

/** The route that declares `schema` in one use; request routes answer the value they received. */
function routeOf(schemaCase: SchemaCase, use: Use) {
  const { schema } = schemaCase;
  const answers = answersOf(schemaCase);
  const received = (value: unknown) => new JsonResponse({ received: value === undefined ? "(none)" : value });
  const declarations = {
    body: { params: { body: p.Json(schema) }, handler: (values: Values) => received(values.body) },
    answer: {
      params: { i: p.Query(z.int()) },
      returns: [p.ResponseSpec({ model: schema })],
      handler: (values: Values) => new JsonResponse(answers[values.i as number]),
    },
    query: { params: { v: p.Query(schema) }, handler: (values: Values) => received(values.v) },
    field: {
      params: { m: p.Query(z.object({ v: schema })) },
      handler: (values: Values) => received((values.m as Values).v),
    },
  }[use];
  const declared = endpoint({
    params: declarations.params as never,
    returns: ("returns" in declarations ? declarations.returns : JsonResponse) as never,
    handler: ((_request: unknown, values: Values) => declarations.handler(values)) as never,
  });
  return path(`/${schemaCase.name}/${use}`, {
    endpoint: declared,
    methods: [METHOD[use]] as never,
    name: `${schemaCase.name}_${use}`,
  });
}

function answersOf(schemaCase: SchemaCase): readonly unknown[] {
  return schemaCase.answers ?? [...schemaCase.accepted, ...(schemaCase.acceptedInJson ?? [])];
}

/** What the client gives for one value in one use. */
function callParams(use: Use, value: unknown): Values {
  if (use === "body") return { body: value };
  if (use === "query") return { v: value };
  return { m: value === undefined ? {} : { v: value } };
}

/** A value as JSON carries it: dates as ISO strings, undefined left out. */
function asJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/** A TypeScript expression of a value: JSON, with `new Date(…)` for dates. */
function literal(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value instanceof Date) return `new Date(${JSON.stringify(value.toISOString())})`;
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    return `{ ${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${literal(item)}`)
      .join(", ")} }`;
  }
  return JSON.stringify(value);
}

const built: { schemaCase: SchemaCase; use: Use }[] = [];
const notBuilt: { schemaCase: SchemaCase; use: Use; error: unknown }[] = [];
let app: App;
let document: OpenApiDocument;
let server: RunningServer;
let client: Record<string, (params?: Values) => Promise<{ kind: string; status?: number; body?: unknown }>>;
let ajv: Ajv2020;
/** Each call made, for the type check: the member, what it sent, and the 200 answer's body if any. */
const calls: { member: string; params: Values; answered?: unknown }[] = [];

beforeAll(async () => {
  const routes = [];
  for (const schemaCase of SCHEMA_CASES) {
    for (const use of USES) {
      const route = routeOf(schemaCase, use);
      try {
        createApp({ routes: [route] });
        routes.push(route);
        built.push({ schemaCase, use });
      } catch (error) {
        notBuilt.push({ schemaCase, use, error });
      }
    }
  }
  app = createApp({ routes });
  document = app.openapi();
  ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats(ajv);
  ajv.addSchema({ $id: "doc", components: document.components }, "doc");
  await mkdir(WORK, { recursive: true });
  await writeFile(join(WORK, "client.ts"), generateClient(app));
  const generated = await import(pathToFileURL(join(WORK, "client.ts")).href);
  server = await startServer(app);
  client = generated.createClient({ baseUrl: server.url });
});

afterAll(async () => {
  await server?.close();
  await rm(WORK, { recursive: true, force: true });
});

/** A schema of the document, its references pointing into the document. */
function compile(schema: unknown): ValidateFunction {
  return ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
}

/** The document's schema of what one use's route reads, and the instance a value makes of it. */
function documentedRequest(schemaCase: SchemaCase, use: Use): (value: unknown) => boolean {
  const operation = document.paths[`/${schemaCase.name}/${use}`]![METHOD[use].toLowerCase() as "get"]!;
  if (use === "body") {
    const media = operation.requestBody as {
      content: Record<string, { schema: unknown }>;
      required?: boolean;
    };
    const validate = compile(media.content["application/json"]!.schema);
    // A body parameter that is not a model travels under its name ({ "body": … }).
    const whole =
      !("properties" in (media.content["application/json"]!.schema as object)) ||
      !("body" in (media.content["application/json"]!.schema as { properties: object }).properties);
    return (value) =>
      value === undefined ? media.required !== true : validate(asJson(whole ? value : { body: value }));
  }
  // Query parameters: one object with a property per documented name.
  const parameters = (operation.parameters ?? []) as { name: string; required: boolean; schema: unknown }[];
  const validate = compile({
    type: "object",
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  });
  const modelRead = parameters.length !== 1 || parameters[0]!.name !== "v";
  return (value) => validate(asJson(use === "query" && modelRead ? (value ?? {}) : { v: value }) ?? {});
}

describe("a declaration the app cannot honour is refused when the app is built", () => {
  it("refuses exactly the uses the table says, each with a ValueError naming the endpoint and the parameter", () => {
    const refusals = notBuilt.map(({ schemaCase, use, error }) => {
      const label = `endpoint "${schemaCase.name}_${use}" (${METHOD[use]} /${schemaCase.name}/${use})`;
      const message = (error as Error).message;
      const expected = schemaCase.notBuilt?.[use];
      const names =
        use === "answer"
          ? message.startsWith(`${label}: the model of its 200 answer cannot be written as JSON: `)
          : message.startsWith(`${label}, parameter "${{ body: "body", query: "v", field: "m" }[use]}" `);
      return {
        route: `${schemaCase.name}_${use}`,
        definitionError: error instanceof ValueError || error instanceof TypeHintRequired,
        names,
        says: expected !== undefined && message.includes(expected) ? expected : message,
      };
    });
    const expected = SCHEMA_CASES.flatMap((schemaCase) =>
      USES.filter((use) => schemaCase.notBuilt?.[use] !== undefined).map((use) => ({
        route: `${schemaCase.name}_${use}`,
        definitionError: true,
        names: true,
        says: schemaCase.notBuilt![use],
      })),
    );
    expect(refusals).toEqual(expected);
  });
});

describe("the document of every declaration the app builds", () => {
  it("is valid OpenAPI 3.1, and each of its schemas compiles as JSON Schema 2020-12", async () => {
    expect(await new Validator().validate(JSON.parse(JSON.stringify(document)))).toEqual({ valid: true });
    const failures: string[] = [];
    for (const [target, item] of Object.entries(document.paths)) {
      for (const schema of schemasOf(item)) {
        try {
          compile(schema);
        } catch (error) {
          failures.push(`${target}: ${(error as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("each value goes through the generated client to the server and back", () => {
  it("the server accepts each accepted value, receives it as sent, and the document admits it", async () => {
    const disagreements: string[] = [];
    for (const { schemaCase, use } of built.filter((entry) => entry.use !== "answer")) {
      const member = `${schemaCase.name}_${use}`;
      const admits = documentedRequest(schemaCase, use);
      for (const value of [
        ...schemaCase.accepted,
        ...(use === "body" ? (schemaCase.acceptedInJson ?? []) : []),
      ]) {
        const params = callParams(use, value);
        const result = await client[member]!(params);
        calls.push({ member, params });
        const parsed = schemaCase.schema.parse(value);
        const expected = asJson({ received: parsed === undefined ? "(none)" : parsed });
        const seen = `${member} ${literal(value)}`;
        if (result.status !== 200)
          disagreements.push(`${seen}: answered ${result.status} ${JSON.stringify(result.body)}`);
        else if (!isEqual(result.body, expected)) {
          disagreements.push(
            `${seen}: received ${JSON.stringify(result.body)}, not ${JSON.stringify(expected)}`,
          );
        }
        if (!admits(value)) disagreements.push(`${seen}: the document does not admit it`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("the server refuses each refused value with a 422, and the document refuses it too unless it cannot say why", async () => {
    const disagreements: string[] = [];
    for (const { schemaCase, use } of built.filter((entry) => entry.use !== "answer")) {
      const member = `${schemaCase.name}_${use}`;
      const admits = documentedRequest(schemaCase, use);
      const refused = [
        ...(schemaCase.refused ?? []),
        ...((use === "body" ? schemaCase.refusedInBody : schemaCase.refusedInText) ?? []),
      ];
      for (const value of refused) {
        const result = await client[member]!(callParams(use, value));
        const seen = `${member} ${literal(value)}`;
        if (result.status !== 422) disagreements.push(`${seen}: answered ${result.status}`);
        const beyond = isBeyondDocument(schemaCase, value);
        if (admits(value) !== beyond) {
          disagreements.push(`${seen}: the document ${beyond ? "refuses" : "admits"} it`);
        }
      }
      for (const value of schemaCase.beyondDocument ?? []) {
        if (!admits(value)) disagreements.push(`${member} ${literal(value)}: the document refuses it`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("values fast-check samples (seeded) are accepted by the server exactly when the document admits them", async () => {
    const samples: Record<string, fc.Arbitrary<unknown>> = {
      int: fc.oneof(fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true })),
      number: fc.double({ noNaN: true, noDefaultInfinity: true }),
      number_bounds: fc.double({ min: -1, max: 11, noNaN: true }),
      int_range: fc.integer({ min: -5, max: 5 }),
      text: fc.string({ unit: "binary" }),
      string_length: fc.string({ unit: "binary", maxLength: 6 }),
      regex: fc.string({ unit: "binary-ascii", maxLength: 4 }),
      list: fc.array(fc.string({ unit: "binary" }), { minLength: 1 }),
      array: fc.array(fc.integer(), { minLength: 1, maxLength: 5 }),
    };
    const disagreements: string[] = [];
    for (const { schemaCase, use } of built.filter(
      (entry) => entry.use === "body" || entry.use === "query",
    )) {
      const arbitrary = samples[schemaCase.name];
      if (arbitrary === undefined) continue;
      const member = `${schemaCase.name}_${use}`;
      const admits = documentedRequest(schemaCase, use);
      for (const value of fc.sample(arbitrary, { seed: 20261127, numRuns: 40 })) {
        const result = await client[member]!(callParams(use, value));
        const beyond = isBeyondDocument(schemaCase, value);
        if ((result.status === 200) !== admits(value) && !beyond) {
          disagreements.push(
            `${member} ${literal(value)}: answered ${result.status}, the document ${admits(value) ? "admits" : "refuses"} it`,
          );
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("each answer goes out as its model writes it, and fits the document's 200 schema", async () => {
    const disagreements: string[] = [];
    for (const { schemaCase } of built.filter((entry) => entry.use === "answer")) {
      const member = `${schemaCase.name}_answer`;
      const operation = document.paths[`/${schemaCase.name}/answer`]!.get!;
      const content = (operation.responses["200"] as { content: Record<string, { schema: unknown }> })
        .content;
      const fits = compile(content["application/json"]!.schema);
      const answers = answersOf(schemaCase);
      for (let i = 0; i < answers.length; i += 1) {
        const result = await client[member]!({ i });
        const seen = `${member} ${literal(answers[i])}`;
        if (result.status !== 200) {
          disagreements.push(`${seen}: answered ${result.status} ${JSON.stringify(result.body)}`);
          continue;
        }
        calls.push({ member, params: { i }, answered: result.body });
        // JSON has no undefined: an answer without a value is written null.
        const written = asJson(schemaCase.schema.parse(answers[i])) ?? null;
        if (!isEqual(result.body, written)) {
          disagreements.push(
            `${seen}: answered ${JSON.stringify(result.body)}, not ${JSON.stringify(written)}`,
          );
        }
        if (!fits(result.body)) disagreements.push(`${seen}: ${JSON.stringify(fits.errors)}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("the generated client compiles, and its types admit each value sent and each answer received", async () => {
    expect(calls.length).toBeGreaterThan(100);
    const lines = [
      'import type { Client } from "./client.ts";',
      "type Params<M extends keyof Client> = Parameters<Client[M]>[0];",
      'type Body<M extends keyof Client> = Extract<Awaited<ReturnType<Client[M]>>, { kind: "documented"; status: 200 }>["body"];',
    ];
    calls.forEach(({ member, params, answered }, index) => {
      lines.push(`export const sent${index}: Params<"${member}"> = ${literal(params)};`);
      if (answered !== undefined)
        lines.push(`export const answered${index}: Body<"${member}"> = ${literal(answered)};`);
    });
    await writeFile(join(WORK, "calls.ts"), `${lines.join("\n")}\n`);
    const tsconfig = {
      extends: "../../../../../tsconfig.base.json",
      compilerOptions: { noEmit: true },
      files: ["client.ts", "calls.ts"],
    };
    await writeFile(join(WORK, "tsconfig.json"), JSON.stringify(tsconfig));
    const output = await new Promise<string>((resolve) => {
      execFile(process.execPath, [TSC, "-p", WORK, "--pretty", "false"], (_error, stdout, stderr) =>
        resolve(stdout + stderr),
      );
    });
    expect(output.split("\n").filter((line) => line !== "")).toEqual([]);
  }, 120_000);
});

/** True for a refused value the table says the document cannot describe. */
function isBeyondDocument(schemaCase: SchemaCase, value: unknown): boolean {
  return (
    (schemaCase.beyondDocument?.some((each) => isEqual(each, value)) ?? false) ||
    (schemaCase.beyondDocumentWhen?.(value) ?? false)
  );
}

function isEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(asJson(a), asJson(b));
}

/** Every Schema object of an operation: those of its parameters, its body and its answers. */
function schemasOf(value: unknown): unknown[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => (key === "schema" ? [item] : schemasOf(item)));
}
