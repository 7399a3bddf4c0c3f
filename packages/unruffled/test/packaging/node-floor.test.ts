// One Node floor, stated the same wherever a newcomer or npm reads it: the READMEs, the guide, the
// `engines` field of every package of the repository, and the check the `unruffled` bin makes.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const FLOOR = "22.18";

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** Every "Node 22.18 or later", "Node ≥ 20" or "Node >= 22" a page states, as its version. */
function floorsStated(text: string): string[] {
  return [...text.matchAll(/Node (?:(\d+(?:\.\d+)*) or later|(?:≥|>=) ?(\d+(?:\.\d+)*))/g)].map(
    (match) => match[1] ?? match[2]!,
  );
}

describe("the Node floor", () => {
  it("is stated as Node 22.18 or later by the READMEs, the getting-started page and every other page of the guide", () => {
    const pages = [
      "README.md",
      "packages/unruffled/README.md",
      ...readdirSync(join(ROOT, "docs"))
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`),
    ];
    const stated = Object.fromEntries(pages.map((page) => [page, floorsStated(read(page))]));
    for (const page of ["README.md", "packages/unruffled/README.md", "docs/getting-started.md"]) {
      expect(stated[page], `${page} states no Node floor`).not.toEqual([]);
    }
    const disagreeing = Object.entries(stated).filter(([, floors]) =>
      floors.some((floor) => floor !== FLOOR),
    );
    expect(disagreeing).toEqual([]);
  });

  it("is the engines field of the root package.json and of every workspace", () => {
    const workspaces: string[] = JSON.parse(read("package.json")).workspaces;
    const engines = Object.fromEntries(
      ["package.json", ...workspaces.map((folder) => `${folder}/package.json`)].map((file) => [
        file,
        JSON.parse(read(file)).engines?.node,
      ]),
    );
    expect(engines).toEqual({
      "package.json": `>=${FLOOR}`,
      "packages/unruffled/package.json": `>=${FLOOR}`,
      "apps/enrollment/package.json": `>=${FLOOR}`,
      "bench/package.json": `>=${FLOOR}`,
      "tools/typed-client/package.json": `>=${FLOOR}`,
      "tools/hostile-input/package.json": `>=${FLOOR}`,
      "tools/process-support/package.json": `>=${FLOOR}`,
      "tools/spectral/package.json": `>=${FLOOR}`,
    });
  });

  it("is the version the unruffled bin checks before it imports anything", () => {
    const floor = /^const FLOOR = \[(\d+), (\d+)\];$/m.exec(read("packages/unruffled/bin/unruffled.js"));
    expect(floor?.slice(1).join(".")).toBe(FLOOR);
  });
});
