import type { PubSub } from "unruffled/pubsub";

/**
 * Tells the followers of a course that its seats changed (a bind or an unbind), through a PubSub:
 * the app's (`app.pubsub`: PostgreSQL `LISTEN/NOTIFY` on PostgreSQL, across the workers or within
 * the process on SQLite), so a change made in any process reaches the followers in every process.
 */
export interface SeatChanges {
  /** Tells every follower of the course, here and in every process that shares the broker. */
  announce(courseId: number): Promise<void>;
  /**
   * Starts following a course: resolves once no change can be missed, to the changes from then on,
   * until `signal` aborts. Changes that arrive together are told once. After the broker's gap (its
   * connection dropped and came back) a change is told too, so the follower reads the state again.
   */
  follow(courseId: number, signal: AbortSignal): Promise<AsyncIterable<void>>;
  /** How many followers are listening now, in this process. */
  followers(): number;
  close(): Promise<void>;
}

/** The topic of a course's seat changes. */
export function seatsTopic(courseId: number): string {
  return `course-seats:${courseId}`;
}

/**
 * Seat changes on a PubSub; `owned` closes the broker with the seat changes (the database made it).
 *
 * @example const changes = await seatChanges.follow(7, request.signal); for await (const _ of changes) …
 */
export class PubSubSeatChanges implements SeatChanges {
  private readonly pubsub: PubSub;
  private readonly owned: boolean;
  private following = 0;

  constructor(pubsub: PubSub, { owned }: { owned: boolean }) {
    this.pubsub = pubsub;
    this.owned = owned;
  }

  async announce(courseId: number): Promise<void> {
    await this.pubsub.publish(seatsTopic(courseId), "changed");
  }

  async follow(courseId: number, signal: AbortSignal): Promise<AsyncIterable<void>> {
    let changed = false;
    let wake: (() => void) | undefined;
    const onChange = () => {
      changed = true;
      wake?.();
    };
    // Subscribed before the caller reads the count: a change in between is told, never missed.
    const unsubscribe = await this.pubsub.subscribe(seatsTopic(courseId), onChange);
    // Changes may have been missed while the broker was away: read the state again.
    const removeGapListener = this.pubsub.onGap(onChange);
    this.following++;
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      this.following--;
      removeGapListener();
      signal.removeEventListener("abort", onAbort);
      unsubscribe().catch(() => undefined);
    };
    const onAbort = () => {
      stop();
      wake?.();
    };
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

  followers(): number {
    return this.following;
  }

  async close(): Promise<void> {
    if (this.owned) await this.pubsub.close();
  }
}
