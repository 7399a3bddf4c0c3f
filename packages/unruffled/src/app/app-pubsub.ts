import { defaultPubSub } from "../pubsub/default-pubsub.ts";
import type { PubSub, PubSubLog } from "../pubsub/pubsub.ts";

/**
 * The broker behind `app.pubsub`: the one given to `createApp`, or a default made on first use, so
 * an app that never publishes loads and opens nothing. Closing a default forgets it (a restarted app
 * makes a new one); a given broker stays closed.
 */
export class AppPubSub {
  private readonly given: PubSub | undefined;
  private made: PubSub | undefined;
  private readonly log: PubSubLog;

  constructor(given: PubSub | undefined, log: PubSubLog) {
    if (given !== undefined && (typeof given !== "object" || typeof given.publish !== "function")) {
      throw new TypeError(
        "createApp({ pubsub }) takes a PubSub: memoryPubSub(), postgresPubSub() or redisPubSub()",
      );
    }
    this.given = given;
    this.log = log;
  }

  get(): PubSub {
    if (this.given !== undefined) return this.given;
    this.made ??= defaultPubSub({ log: this.log });
    return this.made;
  }

  async close(): Promise<void> {
    const made = this.made;
    this.made = undefined;
    await (this.given ?? made)?.close();
  }
}
