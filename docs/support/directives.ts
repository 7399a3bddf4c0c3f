// The guide's Markdown pages carry directives in HTML comments, invisible once rendered, that tie a
// code block to what the test suite runs:
//
//   <!-- include: examples/app.ts -->           the next block is the file, verbatim
//   <!-- include: examples/app.ts#name -->      … or the lines between `// #region name` and `// #endregion`
//   <!-- exchange: examples/app.ts -->          the next two blocks are a request and the app's exact answer
//   <!-- build-error: examples/app.ts -->       the next block is the error importing the file raises
//   <!-- document: examples/app.ts#/pointer --> the next block is that part of the app's OpenAPI document
//
// Paths are relative to the page.
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/** A fenced code block: its language, its text (without the fences) and where that text sits in the page. */
export interface Block {
  lang: string;
  text: string;
  start: number;
  end: number;
}

export type Directive =
  | { kind: "include"; file: string; region: string | undefined; line: number; block: Block }
  | { kind: "exchange"; file: string; line: number; request: Block; response: Block }
  | { kind: "build-error"; file: string; line: number; block: Block }
  | { kind: "document"; file: string; pointer: string; line: number; block: Block };

const DIRECTIVE = /^<!-- (include|exchange|build-error|document): (\S+?) -->$/;
const FENCE = /^```(\S*)$/;

/** The directives of one page, with the blocks each refers to; `file` is an absolute path. */
export function parseDirectives(page: string, markdown: string): Directive[] {
  const lines = markdown.split("\n");
  const offsets: number[] = [];
  let offset = 0;
  for (const line of lines) {
    offsets.push(offset);
    offset += line.length + 1;
  }
  const blocks: (Block & { line: number })[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]!);
    if (open === null) continue;
    const close = lines.findIndex((line, at) => at > index && line === "```");
    if (close < 0) throw new Error(`${page}:${index + 1}: a code block is never closed`);
    const start = offsets[index + 1]!;
    const end = close === index + 1 ? start : offsets[close]! - 1;
    blocks.push({ lang: open[1]!, text: markdown.slice(start, end), start, end, line: index + 1 });
    index = close;
  }

  const directives: Directive[] = [];
  lines.forEach((text, index) => {
    const match = DIRECTIVE.exec(text.trim());
    if (match === null) return;
    const [, kind, target] = match as unknown as [string, Directive["kind"], string];
    const line = index + 1;
    const [path, fragment] = splitOnce(target, "#");
    const file = resolve(dirname(page), path);
    const following = blocks.filter((block) => block.line > line);
    const next = (count: number) => {
      const chosen = following.slice(0, count);
      if (chosen.length < count)
        throw new Error(`${page}:${line}: ${kind} needs ${count} code block(s) after it`);
      return chosen;
    };
    if (kind === "include") directives.push({ kind, file, region: fragment, line, block: next(1)[0]! });
    else if (kind === "exchange") {
      const [request, response] = next(2);
      directives.push({ kind, file, line, request: request!, response: response! });
    } else if (kind === "build-error") directives.push({ kind, file, line, block: next(1)[0]! });
    else {
      if (fragment === undefined) throw new Error(`${page}:${line}: document needs a JSON pointer after #`);
      directives.push({ kind, file, pointer: fragment, line, block: next(1)[0]! });
    }
  });
  return directives;
}

/** What an include shows: the whole file, or the lines of one region. */
export async function includedText(file: string, region: string | undefined): Promise<string> {
  const text = (await readFile(file, "utf8")).replace(/\n$/, "");
  if (region === undefined) return text;
  const lines = text.split("\n");
  const first = lines.findIndex((line) => line.trim() === `// #region ${region}`);
  const last = lines.findIndex((line, at) => at > first && line.trim() === "// #endregion");
  if (first < 0 || last < 0) throw new Error(`${file} has no region "${region}"`);
  return lines.slice(first + 1, last).join("\n");
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
