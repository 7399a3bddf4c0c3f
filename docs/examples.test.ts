// The guide cannot rot: every code block tied to an example file must equal it (`npm run docs:sync`
// rewrites them), every request a page shows is sent to the example app and must get exactly the
// answer the page prints, every declaration error a page quotes must be the one raised, and every
// part of an OpenAPI document a page quotes must be the generated one. See docs/support/directives.ts.
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { endProcessGroups, spawnGroup } from "process-support";
import { DEFAULT_LIMITS } from "unruffled";
import { afterEach, describe, expect, it } from "vitest";
import { includedText, parseDirectives } from "./support/directives.ts";
import {
  comparableAnswer,
  comparableShown,
  importApp,
  parseRequest,
  parseResponse,
  send,
} from "./support/exchange.ts";

// A server example that a failed or timed-out test left running ends with its workers.
afterEach(endProcessGroups);

const DOCS = dirname(fileURLToPath(import.meta.url));
const EXAMPLES = join(DOCS, "examples");
// The guide's pages, and the repository's front page, which quotes an example too.
const pages = [
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith(".md"))
    .sort(),
  "../README.md",
];
const directivesByPage = new Map(
  pages.map((name) => [name, parseDirectives(join(DOCS, name), readFileSync(join(DOCS, name), "utf8"))]),
);

for (const [name, directives] of directivesByPage) {
  if (directives.length === 0) continue;
  describe(name, () => {
    for (const directive of directives) {
      const where = `${relative(DOCS, directive.file)} (line ${directive.line})`;
      switch (directive.kind) {
        case "include":
          it(`quotes ${where}${directive.region ? `#${directive.region}` : ""} verbatim`, async () => {
            expect(directive.block.text).toBe(await includedText(directive.file, directive.region));
          });
          break;
        case "exchange": {
          const request = parseRequest(directive.request.text);
          it(`${where}: ${request.method} ${request.target} gets the answer shown`, async () => {
            const shown = parseResponse(directive.response.text);
            const answer = await send(await importApp(directive.file), request);
            expect(comparableAnswer(answer, shown)).toEqual(comparableShown(shown));
          });
          break;
        }
        case "build-error":
          it(`${where} fails to build with the error shown`, async () => {
            const error = await import(pathToFileURL(directive.file).href).then(
              () => new Error("the module built without an error"),
              (failure: Error) => failure,
            );
            expect(`${error.name}: ${error.message}`).toBe(directive.block.text);
          });
          break;
        case "document":
          it(`${where}: the OpenAPI document at ${directive.pointer} is the one shown`, async () => {
            const document = (await importApp(directive.file)).openapi();
            expect(atPointer(document, directive.pointer)).toEqual(JSON.parse(directive.block.text));
          });
          break;
      }
    }
  });
}

describe("the guide as a whole", () => {
  it("shows every example file on some page", () => {
    const included = new Set(
      [...directivesByPage.values()]
        .flat()
        .flatMap((directive) => (directive.kind === "include" ? [directive.file] : [])),
    );
    const examples = readdirSync(EXAMPLES, { recursive: true, encoding: "utf8" })
      // A generated file (the typed client's) is checked against its generator, not quoted.
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".generated.ts"))
      .map((file) => join(EXAMPLES, file));
    expect(examples.filter((file) => !included.has(file)).map((file) => relative(DOCS, file))).toEqual([]);
  });

  it("links only to files that exist", () => {
    const broken: string[] = [];
    for (const name of pages) {
      const page = join(DOCS, name);
      const markdown = readFileSync(page, "utf8");
      for (const [, target] of markdown.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        try {
          readFileSync(resolve(dirname(page), target!));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EISDIR") broken.push(`${name} → ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("gives every LIMITS key with its default in settings.md", () => {
    const markdown = readFileSync(join(DOCS, "settings.md"), "utf8");
    const rows = Object.fromEntries(
      [...markdown.matchAll(/^\| `([a-z_]+)` +\| ([\d_,]+) /gm)].map(([, key, value]) => [
        key,
        Number(value!.replace(/[_,]/g, "")),
      ]),
    );
    expect(rows).toEqual(DEFAULT_LIMITS);
  });

  it("runs the getting-started server with node main.ts", async () => {
    const child: ChildProcess = spawnGroup(
      process.execPath,
      ["--conditions=source", join(EXAMPLES, "getting-started/main.ts")],
      { env: { ...process.env, PORT: "0" } },
    );
    try {
      const line = await firstLine(child);
      const url = /^Listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1];
      expect(url).toBeDefined();
      const answer = await fetch(`${url}/hello?name=Ann`);
      expect([answer.status, await answer.text()]).toEqual([200, "Hello, Ann!"]);
      const exited = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
    // A process start may take up to 60 s on a busy machine.
  }, 120_000);
});

describe("deployment.md's server.ts", () => {
  it("serves from two workers on one port and stops them all on SIGTERM, exit code 0", async () => {
    const child: ChildProcess = spawnGroup(
      process.execPath,
      ["--conditions=source", join(EXAMPLES, "deployment/server.ts")],
      { env: { ...process.env, PORT: "0", WORKERS: "2" } },
    );
    try {
      const urls = new Set<string>();
      const pids = new Set<string>();
      const lines = createInterface({ input: child.stdout! });
      for await (const line of lines) {
        const match = /^pid (\d+) listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
        if (match === null) continue;
        pids.add(match[1]!);
        urls.add(match[2]!);
        if (pids.size === 2) break;
      }
      expect(urls.size).toBe(1);
      const answer = await fetch(`${[...urls][0]}/hello`);
      expect([answer.status, await answer.text()]).toEqual([200, "Hello, World!"]);
      const exited = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  }, 120_000);
});

function atPointer(document: unknown, pointer: string): unknown {
  let value = document;
  for (const token of pointer.split("/").slice(1)) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    value = (value as Record<string, unknown>)[key];
    if (value === undefined) throw new Error(`The document has nothing at ${pointer} (stopped at "${key}")`);
  }
  return value;
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((done, fail) => {
    createInterface({ input: child.stdout! }).once("line", done);
    child.once("exit", (code) => fail(new Error(`exited with ${code} before printing a line`)));
  });
}
