export type { RunningServer } from "./start-server.ts";
export { startServer } from "./start-server.ts";
