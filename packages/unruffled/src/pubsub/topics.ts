import type { PubSubLog, Unsubscribe } from "./pubsub.ts";

type Listener = (message: string) => void;

// One subscription: the same listener subscribed twice is two subscriptions, each called once.
interface Subscription {
  readonly listener: Listener;
  active: boolean;
}

/**
 * The subscriptions of one process, by topic, and the delivery of a message to them. Every broker
 * keeps one: the broker moves messages between processes, this hands them to listeners. Messages
 * are delivered one after another in the order they arrive, even when a listener publishes again
 * (its message waits for the current one to reach everybody), and a listener that throws is logged
 * and does not stop the others.
 */
export class LocalTopics {
  private readonly topics = new Map<string, Set<Subscription>>();
  private readonly queue: [topic: string, message: string][] = [];
  private delivering = false;
  private readonly log: PubSubLog;

  constructor(log: PubSubLog) {
    this.log = log;
  }

  /** Adds a subscription; `first` tells whether the topic had none in this process. */
  add(
    topic: string,
    listener: Listener,
    onEmpty: (topic: string) => Promise<void>,
  ): { first: boolean; unsubscribe: Unsubscribe } {
    if (typeof listener !== "function") throw new TypeError("subscribe() takes a listener function");
    let subscriptions = this.topics.get(topic);
    const first = subscriptions === undefined;
    if (subscriptions === undefined) {
      subscriptions = new Set();
      this.topics.set(topic, subscriptions);
    }
    const subscription: Subscription = { listener, active: true };
    subscriptions.add(subscription);
    const unsubscribe = async () => {
      if (!subscription.active) return;
      subscription.active = false;
      const current = this.topics.get(topic);
      if (current === undefined || !current.delete(subscription) || current.size > 0) return;
      this.topics.delete(topic);
      await onEmpty(topic);
    };
    return { first, unsubscribe };
  }

  /** Whether this process has a subscription to `topic`. */
  has(topic: string): boolean {
    return this.topics.has(topic);
  }

  /** The topics this process subscribes to. */
  names(): IterableIterator<string> {
    return this.topics.keys();
  }

  /** How many subscriptions this process holds, over all topics. */
  count(): number {
    let count = 0;
    for (const subscriptions of this.topics.values()) count += subscriptions.size;
    return count;
  }

  /** Hands `message` to every subscription of `topic` in this process, after those before it. */
  deliver(topic: string, message: string): void {
    if (!this.topics.has(topic)) return;
    this.queue.push([topic, message]);
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
        this.deliverNow(next[0], next[1]);
      }
    } finally {
      this.delivering = false;
    }
  }

  /** Ends every subscription: their listeners are called no more. */
  clear(): void {
    for (const subscriptions of this.topics.values()) {
      for (const subscription of subscriptions) subscription.active = false;
    }
    this.topics.clear();
    this.queue.length = 0;
  }

  private deliverNow(topic: string, message: string): void {
    const subscriptions = this.topics.get(topic);
    if (subscriptions === undefined) return;
    // A listener may unsubscribe another (or subscribe a new one) meanwhile: walk a copy, skip the ended.
    for (const subscription of [...subscriptions]) {
      if (!subscription.active) continue;
      try {
        subscription.listener(message);
      } catch (error) {
        this.log.error(
          { err: error, topic },
          "A PubSub listener threw; the other listeners were still called",
        );
      }
    }
  }
}
