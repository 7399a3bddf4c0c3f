/** Ends one subscription; resolves once its listener will be called no more. Calling it again does nothing. */
export type Unsubscribe = () => Promise<void>;

/**
 * Publish/subscribe on named topics, across every process that shares the broker. Delivery is at
 * most once: a message published while a process is cut off from the broker never reaches it, and
 * `onGap` tells that this may have happened, so that a stream can send its current state again.
 *
 * @example
 * const unsubscribe = await pubsub.subscribe("course:7", (message) => console.log(message));
 * await pubsub.publish("course:7", JSON.stringify({ seats_left: 3 }));
 * await unsubscribe();
 */
export interface PubSub {
  /** Delivers `message` to every subscriber of `topic` in every process that shares this broker,
   *  exactly once per subscription, in this publisher's order. Resolves once the broker has it. */
  publish(topic: string, message: string): Promise<void>;
  /** Resolves once subscribed: every message published after it resolves reaches `listener`. */
  subscribe(topic: string, listener: (message: string) => void): Promise<Unsubscribe>;
  /** Told when messages may have been lost (the broker connection dropped and came back). Returns a remover. */
  onGap(listener: (error?: Error) => void): () => void;
  /** Ends subscriptions and connections; later publishes reject. */
  close(): Promise<void>;
}

/**
 * Where a broker reports what it cannot tell a caller: a gap (one `warn` record per outage) and a
 * listener that threw (`error`). A pino logger is one; the default writes to the console.
 */
export interface PubSubLog {
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

export const consoleLog: PubSubLog = {
  warn: (details, message) => console.warn(message, details),
  error: (details, message) => console.error(message, details),
};

/** The error of a publish or subscribe on a closed broker. */
export function closedError(broker: string): Error {
  return new Error(`The ${broker} PubSub is closed: publish and subscribe on a new one`);
}

/** Topics are non-empty strings; messages are strings (serialize objects with JSON.stringify). */
export function checkPublish(topic: unknown, message: unknown): void {
  checkTopic(topic);
  if (typeof message !== "string") {
    throw new TypeError(`A PubSub message is a string (JSON.stringify an object), got ${typeof message}`);
  }
}

export function checkTopic(topic: unknown): asserts topic is string {
  if (typeof topic !== "string" || topic === "") {
    throw new TypeError(`A PubSub topic is a non-empty string, got ${JSON.stringify(topic)}`);
  }
}
