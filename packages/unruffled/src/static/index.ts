export type { StaticFilesOptions } from "./static-files.ts";
export { staticFiles } from "./static-files.ts";
