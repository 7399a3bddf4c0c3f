// What the compiler says about a wrong `testClient(app).call(...)`, as docs/testing.md quotes it:
// a program with the mistakes is checked by the repository's tsc, and its messages are read.
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
// Inside the package, so that the program resolves unruffled and zod as the type tests do.
const WORK = fileURLToPath(new URL(`./.call-messages-${process.pid}/`, import.meta.url));

const PROGRAM = `import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { z } from "zod";

const bind = endpoint({
  params: { body: p.Json(z.object({ student_id: z.int() })) },
  returns: [p.ResponseSpec({ model: z.object({ ok: z.boolean() }) })],
  handler: () => new JsonResponse({ ok: true }),
});
const client = testClient(createApp({ routes: [path("/bind", { endpoint: bind, methods: ["POST"] })] }));
await client.call(bind);
await client.call(bind, { body: { student_id: "1" } });
await client.call(bind, { bod: { student_id: 1 } });
`;

const messages: string[] = [];

beforeAll(async () => {
  await mkdir(WORK, { recursive: true });
  await writeFile(join(WORK, "calls.ts"), PROGRAM);
  const tsconfig = {
    extends: "../../../../../tsconfig.base.json",
    compilerOptions: { noEmit: true },
    files: ["calls.ts"],
  };
  await writeFile(join(WORK, "tsconfig.json"), JSON.stringify(tsconfig));
  const output = await new Promise<string>((resolve) => {
    execFile(process.execPath, [TSC, "-p", WORK, "--pretty", "false"], (_error, stdout, stderr) =>
      resolve(stdout + stderr),
    );
  });
  // One entry per error: its first line (position and message) with its indented details.
  for (const line of output.split("\n")) {
    if (line.includes("calls.ts(")) messages.push(line.slice(line.indexOf("calls.ts(")));
    else if (line.startsWith(" ") && messages.length > 0) messages[messages.length - 1] += `\n${line.trim()}`;
  }
}, 120_000);

afterAll(async () => {
  await rm(WORK, { recursive: true, force: true });
});

it("says that the endpoint has required parameters when a call leaves them all out", () => {
  expect(messages[0]).toMatch(/^calls\.ts\(13,19\): error TS2345: /);
  expect(messages[0]).toContain(
    `Property '"~this endpoint has required parameters: pass them as call()'s second argument"' is missing`,
  );
});

it("reports a wrong parameter's own error, not the signature without parameters", () => {
  expect(messages.slice(1)).toEqual([
    "calls.ts(14,35): error TS2322: Type 'string' is not assignable to type 'number'.",
    expect.stringMatching(
      /^calls\.ts\(15,27\): error TS2561: Object literal may only specify known properties, but 'bod' does not exist in type 'CallParams<.*>'\. Did you mean to write 'body'\?$/,
    ),
  ]);
});
