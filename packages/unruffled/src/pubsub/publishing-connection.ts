/**
 * A broker's publishing connection: opened by the first publish, shared by the next ones, and
 * forgotten when it fails (or fails to open), so that the next publish opens a new one.
 */
export class PublishingConnection<C> {
  private current: Promise<C> | undefined;
  /** Opens a connection; calls `dropped` when it fails later. */
  private readonly open: (dropped: () => void) => Promise<C>;
  private readonly end: (connection: C) => unknown;

  constructor(options: { open: (dropped: () => void) => Promise<C>; close: (connection: C) => unknown }) {
    this.open = options.open;
    this.end = options.close;
  }

  /** The open connection, opening one (or joining the attempt under way) if needed. */
  ready(): Promise<C> {
    if (this.current !== undefined) return this.current;
    const opened: Promise<C> = this.open(() => this.forget(opened));
    this.current = opened;
    opened.catch(() => this.forget(opened));
    return opened;
  }

  /**
   * Ends `connection` if it is the one in use (a publish on it failed, or its server stopped
   * answering): the next `ready()` opens a new one. A connection already replaced is left alone.
   */
  drop(connection: C): void {
    const current = this.current;
    current?.then(
      (opened) => {
        if (opened !== connection || this.current !== current) return;
        this.current = undefined;
        Promise.resolve(this.end(connection)).catch(() => undefined);
      },
      () => undefined,
    );
  }

  /** Closes the connection, if one is open or opening; the next `ready()` opens a new one. */
  async close(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    await current?.then((connection) => this.end(connection)).catch(() => undefined);
  }

  private forget(connection: Promise<C>): void {
    if (this.current === connection) this.current = undefined;
  }
}
