import type { PubSubLog } from "../../../src/pubsub/index.ts";

interface LogRecord {
  level: string;
  message: string;
  details: Record<string, unknown>;
  /** When it was logged (`performance.now()`). */
  at: number;
}

/** A log that keeps its records, to count the gaps a broker reported. */
export function recordingLog(): PubSubLog & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  return {
    records,
    warn: (details, message) => records.push({ level: "warn", message, details, at: performance.now() }),
    error: (details, message) => records.push({ level: "error", message, details, at: performance.now() }),
  };
}
