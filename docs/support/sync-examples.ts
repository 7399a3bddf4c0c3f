// Rewrites every included code block of the guide (and of the front page) from its example file:
// `npm run docs:sync` after editing an example. The test suite fails while they differ.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { includedText, parseDirectives } from "./directives.ts";

const DOCS = fileURLToPath(new URL("..", import.meta.url));

const pages = [...(await readdir(DOCS)).filter((entry) => entry.endsWith(".md")).sort(), "../README.md"];
for (const name of pages) {
  const page = join(DOCS, name);
  const markdown = await readFile(page, "utf8");
  let rewritten = markdown;
  // From the last block back, so that earlier offsets stay valid.
  const includes = parseDirectives(page, markdown)
    .filter((directive) => directive.kind === "include")
    .sort((a, b) => b.block.start - a.block.start);
  for (const { file, region, block } of includes) {
    const text = await includedText(file, region);
    // An empty block has no line of its own yet.
    const replacement = block.start === block.end ? `${text}\n` : text;
    rewritten = rewritten.slice(0, block.start) + replacement + rewritten.slice(block.end);
  }
  if (rewritten !== markdown) {
    await writeFile(page, rewritten);
    console.log(`${join("docs", name)}: examples updated`);
  }
}
