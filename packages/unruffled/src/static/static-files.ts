import { z } from "zod";
import { NotFoundError, ValueError } from "../errors.ts";
import { FileResponse } from "../http/file-response.ts";
import { RedirectResponse } from "../http/redirect-response.ts";
import type { HttpRequest } from "../http/request.ts";
import { HttpResponse } from "../http/response.ts";
import { resolve } from "../node-builtins.ts";
import { endpoint } from "../route/declare/endpoint.ts";
import { p } from "../route/declare/markers.ts";
import { path, type RouteDefinition } from "../route/declare/path.ts";
import { lookUp } from "./file-lookup.ts";

export interface StaticFilesOptions {
  /** The folder whose files are served (relative to the working directory); it must exist. */
  directory: string;
  /**
   * Serves a directory's `index.html` (redirecting `/prefix/dir` to `/prefix/dir/`), and `404.html`
   * from the top of the folder, with status 404, for what is not found. Default false.
   */
  html?: boolean;
  /** The route's name (FastAPI's `name="static"` on `app.mount`). */
  name?: string;
}

/**
 * The files of a folder, served under a prefix (FastAPI's `app.mount("/static", StaticFiles(directory=…))`):
 * a group of routes at the prefix: GET and HEAD of `/prefix/<path>` answer the file at `<path>` with a `FileResponse` (type, length,
 * validators, ranges, 304s, 412s), and 404 in the app's error format for anything else. A path that could
 * leave the folder (`..`, encoded or not, a backslash, a NUL byte, an absolute path, a symbolic link
 * to outside) is a 404. The route is left out of the OpenAPI document. The folder must exist when
 * this is called.
 *
 * @example createApp({ routes: [staticFiles("/static", { directory: "public" }), ...routes] })
 */
export function staticFiles(prefix: string, options: StaticFilesOptions): RouteDefinition {
  const said = `staticFiles(${JSON.stringify(prefix)})`;
  if (typeof prefix !== "string" || !prefix.startsWith("/") || (prefix.endsWith("/") && prefix !== "/")) {
    throw new ValueError(
      `${said}: the prefix must start with "/" and not end with one ("/static"), or be "/".`,
    );
  }
  const root = checkedRoot(options?.directory, said);
  const html = options.html === true;
  const served = endpoint({
    params: { file_path: p.Path(z.string()) },
    returns: FileResponse,
    handler: (request, { file_path }) => answer(request, root, file_path, html),
  });
  const files = path("/{file_path:path}", {
    endpoint: served,
    ...(options.name === undefined ? {} : { name: options.name }),
  });
  // With html, the prefix itself is the top directory asked for without its slash (as Starlette's mount).
  const routes = html && prefix !== "/" ? [path("/", { endpoint: toTopDirectory }), files] : [files];
  return path(prefix, { routes, includeInSchema: false });
}

const toTopDirectory = endpoint({
  returns: HttpResponse,
  handler: (request) => slashRedirect(request),
});

/** A 307 to the request's path with a slash added, its query kept. */
function slashRedirect(request: HttpRequest): HttpResponse {
  const query = request.queryString;
  const location = `${request.rootPath}${request.path}/${query === "" ? "" : `?${query}`}`;
  return new RedirectResponse(location);
}

/** The folder's real path, checked once, when the route is declared (Starlette's `check_dir`). */
function checkedRoot(directory: unknown, said: string): string {
  if (typeof directory !== "string" || directory === "") {
    throw new ValueError(
      `${said}: directory must be the path of a folder, got ${JSON.stringify(directory)}.`,
    );
  }
  const fs = process.getBuiltinModule("node:fs");
  let root: string;
  try {
    root = fs.realpathSync(resolve(directory));
  } catch {
    throw new ValueError(`${said}: the directory ${JSON.stringify(directory)} does not exist.`);
  }
  if (!fs.statSync(root).isDirectory()) {
    throw new ValueError(`${said}: ${JSON.stringify(directory)} is not a directory.`);
  }
  return root;
}

async function answer(
  request: HttpRequest,
  root: string,
  filePath: string,
  html: boolean,
): Promise<HttpResponse> {
  const found = await lookUp(root, filePath, html);
  if (found.kind === "file") return new FileResponse(found.path, { stat: found.facts });
  if (found.kind === "slashless-directory") return slashRedirect(request);
  if (html) {
    const page = await lookUp(root, "404.html", false);
    if (page.kind === "file") return new FileResponse(page.path, { status: 404, stat: page.facts });
  }
  throw new NotFoundError(`Not Found: ${request.path}`);
}
