export { type ChildOutput, captureOutput } from "./child-output.ts";
export { freePort } from "./free-port.ts";
export { type HaproxyOptions, startHaproxy, type TestHaproxy } from "./haproxy.ts";
export {
  endProcessGroup,
  endProcessGroups,
  type ProcessOutcome,
  runToEnd,
  spawnGroup,
} from "./process-group.ts";
export { waitFor } from "./wait-for.ts";
