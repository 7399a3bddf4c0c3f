// bench:types is not part of the tests (it takes minutes); this checks that its programs are right:
// at 10 routes, every framework's programs type-check without an error, the generated client's too.
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { sampleProgram } from "./measure.ts";
import { writePrograms } from "./write-programs.ts";

// Inside the repository, so that the programs resolve the workspace's packages; git-ignored.
const WORK = fileURLToPath(new URL(`../results/types-smoke-${process.pid}`, import.meta.url));
afterAll(async () => {
  await rm(WORK, { recursive: true, force: true });
});

it("writes programs of 10 routes that type-check for unruffled, Hono and oRPC", {
  timeout: 120_000,
}, async () => {
  const folders = await writePrograms(10, WORK, ["source"]);
  const checked: Record<string, string[]> = {};
  for (const [framework, roles] of Object.entries(folders)) {
    for (const [role, folder] of Object.entries(roles)) {
      checked[`${framework} ${role}`] = (await sampleProgram(folder)).errors;
    }
  }
  expect(checked).toEqual({
    "unruffled server": [],
    "unruffled testClient": [],
    "unruffled client": [],
    "unruffled baseline": [],
    "hono server": [],
    "hono client": [],
    "orpc server": [],
    "orpc client": [],
  });
});
