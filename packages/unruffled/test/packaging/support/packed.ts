// What the packaging tests share: child processes on the Node that runs the tests, the npm cache the
// repository's install filled, and the package packed as `npm pack` packs it, in a copy of the
// package so that the repository's own files (and anyone testing beside them) are left alone.
import { execFile } from "node:child_process";
import { cp, mkdir, readFile, symlink } from "node:fs/promises";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPOSITORY_ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));
export const PACKAGE_DIR = join(REPOSITORY_ROOT, "packages/unruffled");

// Child processes run on the Node that runs the tests (24), npm included, and without the npm_*
// variables of an enclosing `npm test`, which would point npm at the repository.
export const env: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")),
);
env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH}`;

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(
  file: string,
  args: readonly string[],
  cwd: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd, env: { ...env, ...extraEnv }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

export async function succeed(
  file: string,
  args: readonly string[],
  cwd: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<string> {
  const outcome = await run(file, args, cwd, extraEnv);
  if (outcome.code !== 0) {
    throw new Error(
      `${file} ${args.join(" ")} exited ${outcome.code}:\n${outcome.stdout}\n${outcome.stderr}`,
    );
  }
  return outcome.stdout;
}

/** The npm cache the repository's install filled (or the one npm was told to use). */
export async function npmCache(): Promise<string> {
  return (
    process.env.npm_config_cache ?? (await succeed("npm", ["config", "get", "cache"], REPOSITORY_ROOT)).trim()
  );
}

export interface Packed {
  /** The tarball's absolute path. */
  tarball: string;
  /** The files it holds, sorted. */
  files: string[];
  /** The copy of the package that was packed, after `npm pack` (its postpack included) ran. */
  stagedPackage: string;
}

/**
 * Copies the package into `folder` (with the base tsconfig and node_modules where the repository
 * has them) and runs `npm pack` there with its scripts: prepack builds and strips the "source"
 * conditions, postpack puts them back.
 */
export async function packPackage(folder: string, cache: string): Promise<Packed> {
  const stage = join(folder, "stage");
  const stagedPackage = join(stage, "packages/unruffled");
  await mkdir(stagedPackage, { recursive: true });
  await cp(join(REPOSITORY_ROOT, "tsconfig.base.json"), join(stage, "tsconfig.base.json"));
  await symlink(join(REPOSITORY_ROOT, "node_modules"), join(stage, "node_modules"), "dir");
  await cp(PACKAGE_DIR, stagedPackage, {
    recursive: true,
    filter: (source) => !/[\\/](dist|node_modules|test)$/.test(source.slice(PACKAGE_DIR.length)),
  });
  const stdout = await succeed(
    "npm",
    ["pack", "--json", "--pack-destination", folder, "--cache", cache],
    stagedPackage,
  );
  // The build's scripts print a line each before npm's JSON.
  const packed = JSON.parse(stdout.slice(stdout.search(/^\[$/m))) as {
    filename: string;
    files: { path: string }[];
  }[];
  return {
    tarball: join(folder, packed[0]!.filename),
    files: packed[0]!.files.map((file) => file.path).sort(),
    stagedPackage,
  };
}

/** The package.json of the repository's package, as text. */
export function repositoryManifestText(): Promise<string> {
  return readFile(join(PACKAGE_DIR, "package.json"), "utf8");
}
