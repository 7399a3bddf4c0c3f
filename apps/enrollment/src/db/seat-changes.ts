import { EventEmitter } from "node:events";

/**
 * Tells the followers of a course that its seats changed (a bind or an unbind). SQLite serves one
 * process, so the news stays in it; on PostgreSQL it goes through `LISTEN/NOTIFY` to every process
 * on the database (`postgres-seat-changes.ts`).
 */
export interface SeatChanges {
  /** Tells every follower of the course, here and (PostgreSQL) in every other process. */
  announce(courseId: number): Promise<void>;
  /**
   * Starts following a course: resolves once no change can be missed, to the changes from then on,
   * until `signal` aborts. Changes that arrive together are told once.
   */
  follow(courseId: number, signal: AbortSignal): Promise<AsyncIterable<void>>;
  /** How many followers are listening now, in this process. */
  followers(): number;
  close(): Promise<void>;
}

/**
 * The changes of one process: an in-process channel.
 *
 * @example const changes = await seatChanges.follow(7, request.signal); for await (const _ of changes) …
 */
export class LocalSeatChanges implements SeatChanges {
  protected readonly channel = new EventEmitter();

  constructor() {
    // One listener per open stream: many streams of one course are expected.
    this.channel.setMaxListeners(0);
  }

  async announce(courseId: number): Promise<void> {
    this.tell(courseId);
  }

  /** Passes a change on to this process's followers of the course. */
  protected tell(courseId: number): void {
    this.channel.emit(String(courseId));
  }

  async follow(courseId: number, signal: AbortSignal): Promise<AsyncIterable<void>> {
    return changesOf(this.channel, String(courseId), signal);
  }

  followers(): number {
    return this.channel.eventNames().reduce((count, name) => count + this.channel.listenerCount(name), 0);
  }

  async close(): Promise<void> {
    this.channel.removeAllListeners();
  }
}

/**
 * The changes announced under `name` from now on, until `signal` aborts or the loop stops. The
 * listener is added at once (so nothing is missed before the first `next()`) and removed at the end.
 */
function changesOf(channel: EventEmitter, name: string, signal: AbortSignal): AsyncIterable<void> {
  let changed = false;
  let wake: (() => void) | undefined;
  const onChange = () => {
    changed = true;
    wake?.();
  };
  const stop = () => {
    channel.off(name, onChange);
    signal.removeEventListener("abort", onAbort);
  };
  const onAbort = () => {
    stop();
    wake?.();
  };
  channel.on(name, onChange);
  if (signal.aborted) stop();
  else signal.addEventListener("abort", onAbort, { once: true });
  return {
    async *[Symbol.asyncIterator]() {
      try {
        while (!signal.aborted) {
          if (!changed) await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          if (signal.aborted) return;
          changed = false;
          yield;
        }
      } finally {
        stop();
      }
    },
  };
}
