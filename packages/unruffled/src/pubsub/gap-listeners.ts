/** The `onGap` listeners of a broker: told once per outage, after the connection came back. */
export class GapListeners {
  private readonly listeners = new Set<(error?: Error) => void>();

  add(listener: (error?: Error) => void): () => void {
    if (typeof listener !== "function") throw new TypeError("onGap() takes a listener function");
    // A wrapper per call: the same function added twice is told twice and removed one at a time.
    const entry = (error?: Error) => listener(error);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  tell(error: Error | undefined): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(error);
      } catch {
        // One failing listener must not keep the others from resyncing.
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }

  clear(): void {
    this.listeners.clear();
  }
}
