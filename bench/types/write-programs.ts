import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generateClient } from "unruffled";
import {
  honoPrograms,
  type Layout,
  orpcPrograms,
  type Program,
  type Programs,
  unruffledPrograms,
} from "./programs.ts";

/** Folders of the programs written: framework → role → folder (each with its tsconfig.json). */
export type ProgramFolders = Record<string, Record<string, string>>;

/**
 * Writes every framework's programs at one size under `work`, the generated client included (made
 * from the app the unruffled server program builds). `conditions` are the package conditions the
 * programs resolve with: none for the built packages, as installed; `["source"]` for the sources.
 * `layout` puts the routes in modules of 50 (as an app is written) or all in one file.
 */
export async function writePrograms(
  size: number,
  work: string,
  conditions: string[] = [],
  layout: Layout = "modules",
): Promise<ProgramFolders> {
  const frameworks: Record<string, Programs> = {
    unruffled: unruffledPrograms(size, layout),
    hono: honoPrograms(size, layout),
    orpc: orpcPrograms(size, layout),
  };
  const folders: Record<string, Record<string, string>> = {};
  for (const [framework, programs] of Object.entries(frameworks)) {
    folders[framework] = {};
    for (const [role, program] of Object.entries(programs)) {
      const folder = join(work, `${size}`, framework, role);
      await writeProgram(folder, program, conditions);
      folders[framework]![role] = folder;
    }
  }
  // The generated clients, from the apps the server programs build (the built unruffled, as installed).
  for (const [server, client] of [
    ["server", "client"],
    ["depsServer", "depsClient"],
  ] as const) {
    const serverModule = join(folders.unruffled![server]!, "server.ts");
    const { app } = await import(pathToFileURL(serverModule).href);
    await writeFile(join(folders.unruffled![client]!, "client.generated.ts"), generateClient(app));
  }
  return folders;
}

async function writeProgram(folder: string, program: Program, conditions: string[]): Promise<void> {
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  for (const [name, source] of Object.entries(program.files)) await writeFile(join(folder, name), source);
  const tsconfig = {
    compilerOptions: {
      strict: true,
      target: "es2023",
      lib: ["es2023"],
      module: "nodenext",
      moduleResolution: "nodenext",
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
      customConditions: conditions,
    },
    files: program.roots,
  };
  await writeFile(join(folder, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
}
