import { fileURLToPath } from "node:url";

/** The repository's root folder, where `node_modules` and the tools live. */
export const REPOSITORY_ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));
