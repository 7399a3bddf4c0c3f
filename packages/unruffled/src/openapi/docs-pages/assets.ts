import { createRequire, dirname, fsPromises, join } from "../../node-builtins.ts";

/**
 * Where a documentation asset comes from: a file of a development dependency, which the build
 * copies to `dist/docs-assets/<packageName>/<file>` (scripts/copy-docs-assets.ts).
 */
export interface AssetSource {
  packageName: string;
  file: string;
  contentType: string;
  /** Rewrites the file once, when it is read. */
  patch?: (text: string) => string;
}

/** An asset as served: read once, then kept in memory. */
export interface DocsAsset {
  body: Uint8Array;
  contentType: string;
}

// Redoc 2 draws its "API docs by Redocly" logo from a CDN; an empty inline image keeps the page offline.
const REDOC_CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";

/** The files the documentation pages load, by the name they are served under. */
export const DOCS_ASSETS: Readonly<Record<string, AssetSource>> = {
  "swagger-ui.css": {
    packageName: "swagger-ui-dist",
    file: "swagger-ui.css",
    contentType: "text/css; charset=utf-8",
  },
  "swagger-ui-bundle.js": {
    packageName: "swagger-ui-dist",
    file: "swagger-ui-bundle.js",
    contentType: "text/javascript; charset=utf-8",
  },
  "favicon-32x32.png": {
    packageName: "swagger-ui-dist",
    file: "favicon-32x32.png",
    contentType: "image/png",
  },
  "redoc.standalone.js": {
    packageName: "redoc",
    file: "bundles/redoc.standalone.js",
    contentType: "text/javascript; charset=utf-8",
    patch: (text) => text.replaceAll(REDOC_CDN_LOGO, EMPTY_IMAGE),
  },
};

/** The folder at the top of `dist/`, beside the compiled modules, that the build copies the assets and their licences into. */
export const BUILT_ASSETS_FOLDER = "docs-assets";

// Compiled, the files are the build's copies; run from the sources (the workspace's tests, no build) they are read from the development dependencies.
const builtCopies = import.meta.url.endsWith(".ts")
  ? undefined
  : new URL(`../../${BUILT_ASSETS_FOLDER}/`, import.meta.url); // dist/openapi/docs-pages/ → dist/

const require = createRequire(import.meta.url);
const loaded = new Map<string, Promise<DocsAsset>>();

/**
 * A documentation asset by name, read on first use and kept in memory;
 * `undefined` for a name that is not an asset.
 *
 * @example
 * const asset = await loadDocsAsset("swagger-ui.css"); // { body: Uint8Array, contentType: "text/css; charset=utf-8" }
 */
export function loadDocsAsset(name: string): Promise<DocsAsset> | undefined {
  if (!Object.hasOwn(DOCS_ASSETS, name)) return undefined;
  let asset = loaded.get(name);
  if (asset === undefined) {
    asset = readAsset(DOCS_ASSETS[name]!);
    loaded.set(name, asset);
    // A failed read is tried again by the next request rather than remembered.
    asset.catch(() => loaded.delete(name));
  }
  return asset;
}

/**
 * A file of a development dependency, found from this module: what the build copies, and what the
 * sources serve.
 *
 * @example packageFile("swagger-ui-dist", "swagger-ui.css") // "/…/node_modules/swagger-ui-dist/swagger-ui.css"
 */
export function packageFile(packageName: string, file: string): string {
  return join(dirname(require.resolve(`${packageName}/package.json`)), file);
}

async function readAsset(source: AssetSource): Promise<DocsAsset> {
  const bytes = await fsPromises().readFile(
    builtCopies === undefined
      ? packageFile(source.packageName, source.file)
      : new URL(`${source.packageName}/${source.file}`, builtCopies),
  );
  const body = source.patch ? new TextEncoder().encode(source.patch(bytes.toString("utf8"))) : bytes;
  return { body, contentType: source.contentType };
}
