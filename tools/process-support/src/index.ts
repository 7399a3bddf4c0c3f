export { type ChildOutput, captureOutput } from "./child-output.ts";
export { freePort } from "./free-port.ts";
export { waitFor } from "./wait-for.ts";
