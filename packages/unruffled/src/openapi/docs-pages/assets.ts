import { createRequire, dirname, fsPromises, join, zlib } from "../../node-builtins.ts";

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
  /** The body compressed with gzip, for a client that accepts it; for the text assets only. */
  gzip?: Uint8Array;
}

/**
 * Whether the build stores the asset compressed (`<file>.gz`, 0.3× its size): the text ones, whose
 * bundles are most of an installed unruffled's bytes. Served as they are to a client that accepts
 * gzip, decompressed once for one that does not.
 */
export function storedGzipped(source: AssetSource): boolean {
  return source.contentType.startsWith("text/");
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

/** The package's file as it is served: rewritten by its `patch`. */
async function packageAsset(source: AssetSource): Promise<Uint8Array> {
  const bytes = await fsPromises().readFile(packageFile(source.packageName, source.file));
  return source.patch ? Buffer.from(source.patch(bytes.toString("utf8"))) : bytes;
}

/**
 * An asset as the build stores it (`builtAssetFile`): the package's file, rewritten by its `patch`,
 * and compressed when `storedGzipped`.
 */
export async function builtAsset(source: AssetSource): Promise<Uint8Array> {
  const body = await packageAsset(source);
  return storedGzipped(source) ? gzip(body) : body;
}

/** Where the build stores an asset, under its folder of copies. */
export function builtAssetFile(source: AssetSource): string {
  return `${source.packageName}/${source.file}${storedGzipped(source) ? ".gz" : ""}`;
}

// Run from the sources, an asset is the package's file, compressed here; built, the build's copy.
async function readAsset(source: AssetSource): Promise<DocsAsset> {
  const { contentType } = source;
  if (builtCopies === undefined) {
    const body = await packageAsset(source);
    return storedGzipped(source) ? { body, contentType, gzip: await gzip(body) } : { body, contentType };
  }
  const stored = await fsPromises().readFile(new URL(builtAssetFile(source), builtCopies));
  return storedGzipped(source)
    ? { body: await gunzip(stored), contentType, gzip: stored }
    : { body: stored, contentType };
}

function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const codec = zlib();
  return new Promise((resolve, reject) =>
    codec.gzip(bytes, { level: codec.constants.Z_BEST_COMPRESSION }, (error, output) =>
      error ? reject(error) : resolve(output),
    ),
  );
}

function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    zlib().gunzip(bytes, (error, output) => (error ? reject(error) : resolve(output))),
  );
}
