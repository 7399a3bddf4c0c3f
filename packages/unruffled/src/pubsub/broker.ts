import { GapListeners } from "./gap-listeners.ts";
import { checkTopic, closedError, type PubSub, type PubSubLog, type Unsubscribe } from "./pubsub.ts";
import { LocalTopics } from "./topics.ts";

/**
 * What every broker shares: this process's subscriptions (`LocalTopics`), its `onGap` listeners,
 * and the closed state, after which publish and subscribe reject. A broker says how a message
 * travels (`publish`) and, through the hooks, what a topic's first and last subscription and its
 * own close do across processes.
 */
export abstract class Broker implements PubSub {
  protected readonly topics: LocalTopics;
  protected readonly gaps = new GapListeners();
  protected closed = false;
  /** The broker's name in messages: "memory", "Redis". */
  protected readonly name: string;

  constructor(name: string, log: PubSubLog) {
    this.name = name;
    this.topics = new LocalTopics(log);
  }

  abstract publish(topic: string, message: string): Promise<void>;

  async subscribe(topic: string, listener: (message: string) => void): Promise<Unsubscribe> {
    checkTopic(topic);
    if (this.closed) throw closedError(this.name);
    const { unsubscribe } = this.topics.add(topic, listener, (empty) => this.lastUnsubscribed(empty));
    const joining = this.subscribed(topic);
    // A broker with nothing to wait for (one process) answers without a turn in between.
    if (joining === undefined) return unsubscribe;
    try {
      await joining;
    } catch (error) {
      await unsubscribe();
      throw error;
    }
    if (this.closed) throw closedError(this.name);
    return unsubscribe;
  }

  onGap(listener: (error?: Error) => void): () => void {
    return this.gaps.add(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.topics.clear();
    this.gaps.clear();
    await this.release();
  }

  /**
   * After a subscription was added: what makes it hear the other processes (a connection, a
   * `SUBSCRIBE`), which `subscribe()` waits for; undefined when there is nothing to wait for.
   */
  protected subscribed(_topic: string): Promise<void> | undefined {
    return undefined;
  }

  /** After the last subscription of `topic` in this process ended. */
  protected async lastUnsubscribed(_topic: string): Promise<void> {}

  /** What `close()` lets go of, once the subscriptions ended: connections, listeners. */
  protected async release(): Promise<void> {}
}
