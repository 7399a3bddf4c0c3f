/** Pulls a stream makes in a row before it lets the event loop turn (other requests, timers, I/O). */
export const PULLS_PER_TURN = 64;

/**
 * A streamed body's share of the event loop. A source whose chunks are ready at once (a generator
 * that never waits on I/O, a replayed history) would be read in one run of promise jobs until the
 * socket's buffer is full, and no other request would be served meanwhile: every
 * `PULLS_PER_TURN`-th pull waits for the loop's next turn instead.
 *
 * @example if (this.turns.deferred(this.pullAfterTurn)) return; // at the top of the stream's pull
 */
export class TurnTaking {
  private pulls = 0;

  /** True when this pull is put off to the loop's next turn, where `pull` is called; false to pull now. */
  deferred(pull: () => void): boolean {
    if (++this.pulls < PULLS_PER_TURN) return false;
    this.pulls = 0;
    setImmediate(pull);
    return true;
  }
}
