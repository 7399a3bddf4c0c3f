import type { PubSubLog } from "../../../src/pubsub/index.ts";

/** A log that keeps its records, to count the gaps a broker reported. */
export function recordingLog(): PubSubLog & {
  records: { level: string; message: string; details: Record<string, unknown> }[];
} {
  const records: { level: string; message: string; details: Record<string, unknown> }[] = [];
  return {
    records,
    warn: (details, message) => records.push({ level: "warn", message, details }),
    error: (details, message) => records.push({ level: "error", message, details }),
  };
}
