import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createApp, problemType } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { rateLimit } from "unruffled/rate-limit";
import { endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { afterAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";

vi.setConfig({ testTimeout: 120_000 });
const run = promisify(execFile);
const root = join(import.meta.dirname, "..", "..", "..", "..");
const scratch = mkdtempSync(join(tmpdir(), "unruffled-spectral-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const bearer = httpBearer({ verify: (token) => (token === "t" ? { sub: "t", scope: "write" } : null) });
const Note = z.object({ text: z.string().max(280) }).meta({ id: "Note" });
const Closed = problemType({
  type: "https://example.org/problems/closed",
  title: "Closed",
  status: 409,
  model: z.object({ opens: z.string().max(40) }),
});
const list = endpoint({
  params: { page: p.Query(z.int().max(100).default(1)) },
  returns: [p.ResponseSpec({ model: z.array(Note).max(10) })],
  handler: () => new JsonResponse([]),
});
const add = endpoint({
  params: { note: p.Json(Note), user: p.Security(bearer, { scopes: ["write"] }) },
  returns: [p.ResponseSpec({ code: "201", model: Note }), Closed.response],
  handler: (_request, { note }) => new JsonResponse(note, { status: 201 }),
});
const routes = [
  path("/notes", {
    rateLimits: [rateLimit({ name: "hourly", limit: 20, window: 3600 })],
    routes: [
      path("/", { endpoint: list, name: "list_notes" }),
      path("/", { endpoint: add, name: "add_note", methods: ["POST"] }),
    ],
  }),
];
const limitedApp = (format: "detail" | "problem") => createApp({ settings: { ERRORS: { format } }, routes });

const POLICY_HEADERS = {
  "RateLimit-Policy": {
    description:
      'The route\'s quota policies (draft-ietf-httpapi-ratelimit-headers-11): a structured-field List, `"name";q=<units>;w=<seconds>`.',
    schema: { type: "string" },
  },
  RateLimit: {
    description:
      'Each policy\'s remaining units and the seconds until its quota is whole (draft-ietf-httpapi-ratelimit-headers-11): `"name";r=<units>;t=<seconds>`.',
    schema: { type: "string" },
  },
};
const RETRY_AFTER = {
  "Retry-After": {
    description: "Seconds to wait before the request can be admitted.",
    schema: { type: "integer", minimum: 1 },
  },
};

describe("a limited operation in the document", () => {
  it("lists its 429 with Retry-After, and the rate-limit headers on its successes and client errors", () => {
    const responses = limitedApp("detail").openapi().paths["/notes"]!.get!.responses;
    expect(responses).toEqual({
      "200": {
        description: "Successful Response",
        headers: POLICY_HEADERS,
        content: {
          "application/json": {
            schema: { type: "array", maxItems: 10, items: { $ref: "#/components/schemas/Note" } },
          },
        },
      },
      "422": {
        description: "Validation Error",
        headers: POLICY_HEADERS,
        content: { "application/json": { schema: { $ref: "#/components/schemas/HTTPValidationError" } } },
      },
      "429": {
        description: "Too Many Requests",
        headers: { ...POLICY_HEADERS, ...RETRY_AFTER },
        content: { "application/json": { schema: { $ref: "#/components/schemas/HTTPError" } } },
      },
    });
  });

  it("with ERRORS.format problem, describes every error as problem details and the 429 as quota-exceeded", () => {
    const document = limitedApp("problem").openapi();
    const responses = document.paths["/notes"]!.post!.responses;
    // 413 and 415: the operation reads a body, which the framework may refuse.
    expect(Object.keys(responses)).toEqual(["201", "401", "403", "409", "413", "415", "422", "429"]);
    expect(responses["413"]!.content).toEqual({
      "application/problem+json": { schema: { $ref: "#/components/schemas/ProblemDetails" } },
    });
    expect(responses["401"]!.content).toEqual({
      "application/problem+json": { schema: { $ref: "#/components/schemas/ProblemDetails" } },
    });
    expect(responses["409"]!.content).toEqual({
      "application/problem+json": { schema: { $ref: "#/components/schemas/ClosedProblem" } },
    });
    expect(responses["429"]!.content).toEqual({
      "application/problem+json": { schema: { $ref: "#/components/schemas/QuotaExceededProblem" } },
    });
    expect(document.components!.schemas!.QuotaExceededProblem).toEqual({
      type: "object",
      properties: {
        type: { type: "string", const: "https://iana.org/assignments/http-problem-types#quota-exceeded" },
        title: { type: "string" },
        status: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
        detail: { type: "string" },
        instance: { type: "string" },
        "violated-policies": { type: "array", items: { type: "string" } },
      },
      required: ["type", "title", "status", "violated-policies"],
    });
  });

  it("leaves an unlimited operation without a 429 or rate-limit headers", () => {
    const app = createApp({ routes: [path("/notes", { endpoint: list })] });
    const responses = app.openapi().paths["/notes"]!.get!.responses;
    expect(Object.keys(responses)).toEqual(["200", "422"]);
    expect(responses["200"]!.headers).toBeUndefined();
  });
});

/** Spectral's findings for a document, with the OWASP ruleset's rate-limit rules only. */
async function rateLimitFindings(document: unknown): Promise<{ code: string; path: string[] }[]> {
  const file = join(scratch, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(document));
  const ruleset = join(scratch, "ruleset.yaml");
  const owasp = join(root, "node_modules", "@stoplight", "spectral-owasp-ruleset", "dist", "ruleset.mjs");
  writeFileSync(
    ruleset,
    [
      `extends: [["${owasp}", "off"]]`,
      "rules:",
      "  owasp:api4:2023-rate-limit: error",
      "  owasp:api4:2023-rate-limit-retry-after: error",
      "  owasp:api4:2023-rate-limit-responses-429: error",
      "",
    ].join("\n"),
  );
  const cli = join(root, "node_modules", "@stoplight", "spectral-cli", "dist", "index.js");
  const result = await run(
    process.execPath,
    [cli, "lint", file, "--ruleset", ruleset, "-f", "json", "--quiet"],
    {
      cwd: scratch,
    },
  ).catch((error: { stdout: string }) => error);
  const text = result.stdout.trim();
  return (text === "" ? [] : JSON.parse(text)).map(({ code, path }: { code: string; path: string[] }) => ({
    code,
    path,
  }));
}

describe("the OWASP rate-limit rules of Spectral's ruleset", () => {
  it("find nothing in a limited app's document, in either error format", async () => {
    expect(await rateLimitFindings(limitedApp("detail").openapi())).toEqual([]);
    expect(await rateLimitFindings(limitedApp("problem").openapi())).toEqual([]);
  });

  it("find the missing 429 and headers of an unlimited app (the rules run)", async () => {
    const app = createApp({ routes: [path("/notes", { endpoint: list })] });
    const codes = (await rateLimitFindings(app.openapi())).map((finding) => finding.code);
    expect(new Set(codes)).toEqual(
      new Set(["owasp:api4:2023-rate-limit", "owasp:api4:2023-rate-limit-responses-429"]),
    );
  });
});
