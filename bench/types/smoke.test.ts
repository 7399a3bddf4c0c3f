// bench:types is not part of the tests (it takes minutes); this checks that its programs are right:
// every framework's programs type-check without an error, the generated client's too, in both
// layouts (60 routes make two modules of the "modules" layout).
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { sampleProgram } from "./measure.ts";
import { writePrograms } from "./write-programs.ts";

// Inside the repository, so that the programs resolve the workspace's packages; git-ignored.
const WORK = fileURLToPath(new URL(`../results/types-smoke-${process.pid}`, import.meta.url));
afterAll(async () => {
  await rm(WORK, { recursive: true, force: true });
});

it.each([
  { layout: "modules", size: 60 },
  { layout: "file", size: 10 },
] as const)(
  "writes programs of $size routes in the $layout layout that type-check for unruffled, Hono and oRPC",
  {
    timeout: 120_000,
  },
  async ({ layout, size }) => {
    const folders = await writePrograms(size, join(WORK, layout), ["source"], layout);
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
      "unruffled depsServer": [],
      "unruffled depsTestClient": [],
      "unruffled depsClient": [],
      "hono server": [],
      "hono client": [],
      "orpc server": [],
      "orpc client": [],
    });
  },
);
