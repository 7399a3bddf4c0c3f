import { settleWithin } from "../settle-within.ts";
import type { GapListeners } from "./gap-listeners.ts";
import { closedError, type PubSubLog } from "./pubsub.ts";

export interface ReconnectionOptions<C> {
  /** The broker's name in messages: "PostgreSQL", "Redis". */
  name: string;
  log: PubSubLog;
  gaps: GapListeners;
  /** Whether to reconnect after a loss (someone subscribes); else the next `ready()` does. */
  wanted: () => boolean;
  /** Opens a subscribed connection; calls `lost` when it drops later. */
  open: (lost: (error: Error) => void) => Promise<C>;
  close: (connection: C) => Promise<unknown>;
  /**
   * Asks the open connection for an answer (PING, `select 1`) every `checkEvery` ms: one that gives
   * none within as long counts as lost. A cut network drops nothing, so it shows only this way.
   */
  check: (connection: C) => Promise<unknown>;
  checkEvery: number;
}

// After a loss: 100 ms, then twice as long after each failed attempt, up to 2 s.
const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 2_000;

/**
 * A broker's subscribing connection, opened on first need and opened again after it drops. An
 * outage (from the loss until a connection is back) is logged once, as one `warn` record, and told
 * to the `onGap` listeners once, when the connection is back: what was published meanwhile is lost.
 */
export class Reconnection<C> {
  private readonly options: ReconnectionOptions<C>;
  private current: C | undefined;
  private opening: Promise<C> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private checkTimer: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private outage: Error | undefined;
  private closed = false;

  constructor(options: ReconnectionOptions<C>) {
    this.options = options;
  }

  /** The open connection, if there is one now. */
  get connection(): C | undefined {
    return this.current;
  }

  /** Resolves to the open connection, opening one (or joining the attempt under way) if needed. */
  ready(): Promise<C> {
    if (this.closed) return Promise.reject(closedError(this.options.name));
    if (this.current !== undefined) return Promise.resolve(this.current);
    this.opening ??= this.open();
    return this.opening;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    clearTimeout(this.checkTimer);
    this.checkTimer = undefined;
    const current = this.current;
    this.current = undefined;
    await Promise.all([
      this.opening?.catch(() => undefined),
      current === undefined ? undefined : this.options.close(current).catch(() => undefined),
    ]);
  }

  private async open(): Promise<C> {
    clearTimeout(this.timer);
    this.timer = undefined;
    let connection: C | undefined;
    try {
      connection = await this.options.open((error) => this.lost(connection, error));
    } catch (error) {
      // An attempt that a subscribe started during an outage took the timer's place: keep trying.
      if (this.outage !== undefined) this.retry();
      throw error;
    } finally {
      this.opening = undefined;
    }
    if (this.closed) {
      await this.options.close(connection).catch(() => undefined);
      throw closedError(this.options.name);
    }
    this.current = connection;
    this.attempts = 0;
    this.scheduleCheck(connection);
    if (this.outage !== undefined) {
      const outage = this.outage;
      this.outage = undefined;
      this.options.gaps.tell(outage);
    }
    return connection;
  }

  private lost(connection: C | undefined, error: Error): void {
    // A failure while opening is the opener's to report; a connection already replaced is done with.
    if (connection === undefined || connection !== this.current) return;
    this.current = undefined;
    clearTimeout(this.checkTimer);
    this.checkTimer = undefined;
    this.options.close(connection).catch(() => undefined);
    if (this.closed) return;
    if (this.outage === undefined) {
      this.outage = error;
      this.options.log.warn(
        { err: error, broker: this.options.name },
        `PubSub: lost the ${this.options.name} connection; reconnecting. Messages published until it is back are lost`,
      );
    }
    this.retry();
  }

  private scheduleCheck(connection: C): void {
    const { check, checkEvery, name } = this.options;
    this.checkTimer = setTimeout(async () => {
      this.checkTimer = undefined;
      try {
        await settleWithin(
          check(connection),
          checkEvery,
          () => new Error(`The ${name} connection did not answer within ${checkEvery} ms`),
        );
      } catch (error) {
        this.lost(connection, error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (connection === this.current && !this.closed) this.scheduleCheck(connection);
    }, checkEvery);
    // The connection's socket keeps the process alive while it is needed; the check alone does not.
    this.checkTimer.unref();
  }

  private retry(): void {
    if (this.closed || this.timer !== undefined || !this.options.wanted()) return;
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.attempts);
    this.attempts++;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.ready().catch(() => this.retry());
    }, delay);
  }
}
