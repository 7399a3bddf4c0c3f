import { Broker } from "./broker.ts";
import { checkPublish, closedError, consoleLog, type PubSub, type PubSubLog } from "./pubsub.ts";

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

class MemoryPubSub extends Broker {
  constructor(log: PubSubLog) {
    super("memory", log);
  }

  async publish(topic: string, message: string): Promise<void> {
    checkPublish(topic, message);
    if (this.closed) throw closedError(this.name);
    this.topics.deliver(topic, message);
  }
}
