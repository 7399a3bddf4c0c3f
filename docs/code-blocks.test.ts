// Every TypeScript block of the guide compiles, or says that it is a part on purpose:
// - a block quoted whole from an example file (`<!-- include: examples/x.ts -->`) is that file, which
//   `npm run typecheck` checks (tsconfig.json includes docs/**/*.ts) and examples.test.ts compares;
// - a block quoted from a region (`#name`) is a part of such a file;
// - any other block is marked `<!-- fragment -->` on the line above it: an excerpt (of a generated
//   file, of an app the page describes) that names things declared elsewhere.
// The getting-started and typed-client pages are also compiled as copied, in a project that installed
// the packed package (packages/unruffled/test/packaging/first-day.test.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { includedText } from "./support/directives.ts";

const DOCS = dirname(fileURLToPath(import.meta.url));
const PAGES = [
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith(".md"))
    .sort(),
  "../README.md",
];
const INCLUDE = /^<!-- include: (\S+?)(?:#(\S+))? -->$/;

interface TsBlock {
  line: number;
  text: string;
  /** The HTML comment lines just above the block. */
  comments: string[];
}

function tsBlocks(markdown: string): TsBlock[] {
  const lines = markdown.split("\n");
  const blocks: TsBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)$/.exec(lines[index]!);
    if (open === null) continue;
    const close = lines.findIndex((line, at) => at > index && line === "```");
    if (["ts", "typescript", "tsx", "mts"].includes(open[1]!)) {
      const comments: string[] = [];
      for (let above = index - 1; above >= 0 && lines[above]!.startsWith("<!--"); above--) {
        comments.unshift(lines[above]!);
      }
      blocks.push({ line: index + 1, text: lines.slice(index + 1, close).join("\n"), comments });
    }
    index = close;
  }
  return blocks;
}

describe("every TypeScript block of the guide", () => {
  for (const page of PAGES) {
    const blocks = tsBlocks(readFileSync(join(DOCS, page), "utf8"));
    if (blocks.length === 0) continue;
    it(`${page}: is an example file that type-checks, a part of one, or marked <!-- fragment -->`, () => {
      const unchecked = blocks
        .filter((block) => {
          if (block.comments.includes("<!-- fragment -->")) return false;
          const include = block.comments
            .map((comment) => INCLUDE.exec(comment))
            .find((match) => match !== null);
          if (include === undefined || include === null) return true;
          const file = join(dirname(join(DOCS, page)), include[1]!);
          // Inside docs/, where `npm run typecheck` reads every .ts file.
          return !(file.startsWith(`${DOCS}/`) && file.endsWith(".ts") && existsSync(file));
        })
        .map((block) => `${page}:${block.line}: ${block.text.split("\n")[0]}`);
      expect(unchecked).toEqual([]);
    });
  }
});

it("shows the typed-client page's program whole: its parts, in order, are use-client.ts", async () => {
  const shown = tsBlocks(readFileSync(join(DOCS, "typed-client.md"), "utf8"))
    .filter((block) =>
      block.comments.some((comment) => comment.includes("examples/typed-client/use-client.ts#")),
    )
    .map((block) => block.text)
    .join("\n\n");
  const file = join(DOCS, "examples/typed-client/use-client.ts");
  const whole = (await includedText(file, undefined))
    .split("\n")
    .filter((line) => !/^\/\/ #(end)?region\b/.test(line))
    .join("\n");
  // The file's opening comment says what the program is for; the rest is what the page shows.
  expect(whole.slice(whole.indexOf("import ")).trimEnd()).toBe(shown.trimEnd());
});
