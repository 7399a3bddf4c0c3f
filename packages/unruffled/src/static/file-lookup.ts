import type { FileFacts } from "../http/file-response.ts";
import { fsPromises, join } from "../node-builtins.ts";

/** What a request's path names under a served directory. */
export type Lookup =
  | { readonly kind: "file"; readonly path: string; readonly facts: FileFacts }
  /** A directory asked for without its trailing slash (html mode): redirected to the path with one. */
  | { readonly kind: "slashless-directory" }
  | { readonly kind: "missing" };

const MISSING: Lookup = { kind: "missing" };
const SLASHLESS: Lookup = { kind: "slashless-directory" };

/**
 * The file a request's (percent-decoded) path names under `root` (a real path, without symbolic
 * links): missing when the path could leave the directory (a `..` segment, a backslash, a NUL byte,
 * an absolute path, an empty segment), when it names nothing, or when its real path (symbolic links
 * followed) is outside `root`. With `html`, a directory is its `index.html`.
 *
 * @example await lookUp("/srv/public", "css/site.css", false) // { kind: "file", path: "/srv/public/css/site.css", facts }
 */
export async function lookUp(root: string, relativePath: string, html: boolean): Promise<Lookup> {
  if (!staysInside(relativePath)) return MISSING;
  const found = await realFile(root, join(root, relativePath));
  if (found === undefined) return MISSING;
  if (found.facts.isFile()) return { kind: "file", path: found.path, facts: found.facts };
  if (!html || !found.directory) return MISSING;
  if (relativePath !== "" && !relativePath.endsWith("/")) return SLASHLESS;
  const index = await realFile(root, join(found.path, "index.html"));
  return index?.facts.isFile() === true ? { kind: "file", path: index.path, facts: index.facts } : MISSING;
}

/**
 * Whether a relative path names something under its directory whatever the directory holds: no
 * `..` segment, no backslash (a separator on Windows), no NUL byte, and no empty segment but the
 * last (`//x` is absolute once joined elsewhere; `dir/` is a directory).
 */
function staysInside(relativePath: string): boolean {
  if (relativePath.includes("\0") || relativePath.includes("\\")) return false;
  const segments = relativePath.split("/");
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    if (segment === "..") return false;
    if (segment === "" && index < segments.length - 1) return false;
  }
  return true;
}

/** The real path of `candidate` and its `stat`, when it exists and its real path is under `root`. */
async function realFile(
  root: string,
  candidate: string,
): Promise<{ path: string; facts: FileFacts; directory: boolean } | undefined> {
  const fs = fsPromises();
  try {
    const real = await fs.realpath(candidate);
    // A symbolic link may point anywhere: what it points to must be under the directory too.
    if (real !== root && !real.startsWith(root.endsWith("/") ? root : `${root}/`)) return undefined;
    const facts = await fs.stat(real);
    return { path: real, facts, directory: facts.isDirectory() };
  } catch {
    // Nothing there, a loop of links, a component that is a file, no permission: not found.
    return undefined;
  }
}
