import { GapListeners } from "./gap-listeners.ts";
import {
  checkPublish,
  checkTopic,
  closedError,
  consoleLog,
  type PubSub,
  type PubSubLog,
  type Unsubscribe,
} from "./pubsub.ts";
import { LocalTopics } from "./topics.ts";

export interface MemoryPubSubOptions {
  /** Where a listener that throws is reported (default the console; a pino logger fits). */
  log?: PubSubLog;
}

/**
 * A broker for one process: a published message reaches this process's subscribers before
 * `publish()` resolves. It has no connection, so it never has a gap. The app's default outside
 * `--workers`.
 *
 * @example
 * const pubsub = memoryPubSub();
 * await pubsub.subscribe("news", (message) => console.log(message));
 * await pubsub.publish("news", "hello"); // logs "hello"
 */
export function memoryPubSub(options: MemoryPubSubOptions = {}): PubSub {
  return new MemoryPubSub(options.log ?? consoleLog);
}

class MemoryPubSub implements PubSub {
  private readonly topics: LocalTopics;
  private readonly gaps = new GapListeners();
  private closed = false;

  constructor(log: PubSubLog) {
    this.topics = new LocalTopics(log);
  }

  async publish(topic: string, message: string): Promise<void> {
    checkPublish(topic, message);
    if (this.closed) throw closedError("memory");
    this.topics.deliver(topic, message);
  }

  async subscribe(topic: string, listener: (message: string) => void): Promise<Unsubscribe> {
    checkTopic(topic);
    if (this.closed) throw closedError("memory");
    return this.topics.add(topic, listener, async () => {}).unsubscribe;
  }

  onGap(listener: (error?: Error) => void): () => void {
    return this.gaps.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.topics.clear();
    this.gaps.clear();
  }
}
