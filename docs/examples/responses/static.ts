import { fileURLToPath } from "node:url";
import { createApp } from "unruffled";
import { staticFiles } from "unruffled/static";

// Beside this file, whatever the working directory: a relative directory is read from it.
const publicFolder = fileURLToPath(new URL("./public", import.meta.url));

export const app = createApp({
  routes: [staticFiles("/static", { directory: publicFolder, name: "static" })],
});
