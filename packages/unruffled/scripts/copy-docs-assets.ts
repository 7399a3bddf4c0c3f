// Part of the build: copies the files the documentation pages load (DOCS_ASSETS) from the
// development dependencies they come from into dist/docs-assets/<package>/ (the text ones
// compressed with gzip, as `<file>.gz`), beside each package's licence notices, and writes
// NOTICES.md naming what was copied from which version. An installed
// unruffled serves these copies, so Swagger UI and Redoc (with React, core-js and the rest of their
// dependency trees) are never installed by a project that uses it.
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  type AssetSource,
  BUILT_ASSETS_FOLDER,
  builtAsset,
  builtAssetFile,
  DOCS_ASSETS,
  packageFile,
} from "../src/openapi/docs-pages/assets.ts";

/** The licence files each copied package ships, copied with its assets. */
const NOTICES: Readonly<Record<string, readonly string[]>> = {
  "swagger-ui-dist": ["LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt"],
  redoc: ["LICENSE", "bundles/redoc.standalone.js.LICENSE.txt"],
};

interface PackageJson {
  name: string;
  version: string;
  license: string;
  homepage?: string;
}

/** Copies every asset and notice into `folder` (emptied first); returns the files copied. */
async function copyDocsAssets(folder: string): Promise<string[]> {
  const assetsByPackage = new Map<string, AssetSource[]>();
  for (const source of Object.values(DOCS_ASSETS)) {
    assetsByPackage.set(source.packageName, [...(assetsByPackage.get(source.packageName) ?? []), source]);
  }
  await rm(folder, { recursive: true, force: true });
  const copied: string[] = [];
  const notices: string[] = [];
  for (const [packageName, assets] of assetsByPackage) {
    const licences = NOTICES[packageName];
    if (licences === undefined) throw new Error(`No licence notices listed for ${packageName}`);
    const manifest = JSON.parse(
      await readFile(packageFile(packageName, "package.json"), "utf8"),
    ) as PackageJson;
    for (const source of assets) {
      const target = join(folder, builtAssetFile(source));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, await builtAsset(source));
      copied.push(builtAssetFile(source));
    }
    for (const file of licences) {
      const target = join(folder, packageName, file);
      await mkdir(dirname(target), { recursive: true });
      await cp(packageFile(packageName, file), target);
      copied.push(`${packageName}/${file}`);
    }
    notices.push(
      `## ${manifest.name} ${manifest.version}\n\n` +
        `Licence: ${manifest.license} (${licences.map((file) => `\`${packageName}/${file}\``).join(", ")}).` +
        `${manifest.homepage === undefined ? "" : ` Home: ${manifest.homepage}`}\n\n` +
        `Copied from the npm package \`${manifest.name}@${manifest.version}\`: ` +
        `${assets.map(({ file }) => `\`${file}\``).join(", ")}.\n`,
    );
  }
  await writeFile(
    join(folder, "NOTICES.md"),
    "# Third-party files of the documentation pages\n\n" +
      "unruffled serves these files under `/openapi/assets/` for its Swagger UI and Redoc pages. " +
      "Each is copied from the npm package named below, with that package's licence notices. " +
      "The JavaScript and CSS files are stored compressed with gzip (`<file>.gz`), sent so to a " +
      "browser that accepts gzip and decompressed for one that does not; Redoc's bundle has its CDN " +
      "logo replaced by an empty inline image.\n\n" +
      notices.join("\n"),
  );
  return copied;
}

const folder = process.argv[2] ?? join("dist", BUILT_ASSETS_FOLDER);
const copied = await copyDocsAssets(folder);
console.log(`Documentation assets: ${copied.length} files copied into ${folder}`);
