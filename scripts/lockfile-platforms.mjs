// The npm registry these machines reach lacks some platform builds of Biome (macOS, Windows, musl,
// Android), so `npm install` leaves them out of package-lock.json and `npm ci` then refuses the
// lockfile. This adds their entries back (by version; they are fetched only on their platform).
// Run after any `npm install`: `node scripts/lockfile-platforms.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const lockPath = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const biome = lock.packages["node_modules/@biomejs/biome"];
const platforms = {
  "cli-android-arm64": { os: ["android"], cpu: ["arm64"] },
  "cli-android-x64": { os: ["android"], cpu: ["x64"] },
  "cli-darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
  "cli-darwin-x64": { os: ["darwin"], cpu: ["x64"] },
  "cli-linux-arm64": { os: ["linux"], cpu: ["arm64"], libc: ["glibc"] },
  "cli-linux-arm64-musl": { os: ["linux"], cpu: ["arm64"], libc: ["musl"] },
  "cli-linux-x64": { os: ["linux"], cpu: ["x64"], libc: ["glibc"] },
  "cli-linux-x64-musl": { os: ["linux"], cpu: ["x64"], libc: ["musl"] },
  "cli-win32-arm64": { os: ["win32"], cpu: ["arm64"] },
  "cli-win32-x64": { os: ["win32"], cpu: ["x64"] },
};
let added = 0;
for (const [name, constraints] of Object.entries(platforms)) {
  const key = `node_modules/@biomejs/${name}`;
  if (!(`@biomejs/${name}` in (biome.optionalDependencies ?? {})) || lock.packages[key]) continue;
  lock.packages[key] = {
    version: biome.optionalDependencies[`@biomejs/${name}`],
    ...constraints,
    dev: true,
    license: "MIT OR Apache-2.0",
    optional: true,
    engines: { node: ">=14.21.3" },
  };
  added++;
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile: ${added} platform entries of Biome added`);
