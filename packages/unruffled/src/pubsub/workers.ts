import { Broker } from "./broker.ts";
import { checkPublish, closedError, consoleLog, type PubSub, type PubSubLog } from "./pubsub.ts";
import { inRelayedWorker, isRelayEnvelope, RELAY_KEY, type RelayEnvelope } from "./workers-relay.ts";

export interface WorkersPubSubOptions {
  /** Where a listener that throws is reported (default the console; a pino logger fits). */
  log?: PubSubLog;
}

/**
 * A broker for the workers of one machine (`unruffled serve --workers N`, or `runWorkers`): a
 * message goes over IPC to the cluster primary, which passes it to every worker, the publisher's
 * too, so each subscription gets it once, in each publisher's order. `publish()` resolves once the
 * message is written to the primary's channel. No connection can drop (a worker whose primary is
 * gone ends), so there is no gap. The app's default in such a worker.
 *
 * @example
 * // in a worker of runWorkers({ workers: 4, start })
 * const pubsub = workersPubSub();
 */
export function workersPubSub(options: WorkersPubSubOptions = {}): PubSub {
  if (!inRelayedWorker()) {
    throw new Error(
      "workersPubSub() runs in a worker of `unruffled serve --workers N` (or runWorkers), whose primary relays the messages; use memoryPubSub() in one process",
    );
  }
  return new WorkersPubSub(options.log ?? consoleLog);
}

class WorkersPubSub extends Broker {
  private receiving = false;

  constructor(log: PubSubLog) {
    super("workers", log);
  }

  // A bound field: added to and removed from `process` as the first and last subscription come and go.
  private readonly receive = (message: unknown): void => {
    if (!isRelayEnvelope(message)) return;
    const [topic, text] = message[RELAY_KEY];
    this.topics.deliver(topic, text);
  };

  publish(topic: string, message: string): Promise<void> {
    checkPublish(topic, message);
    if (this.closed) return Promise.reject(closedError(this.name));
    const envelope: RelayEnvelope = { [RELAY_KEY]: [topic, message] };
    return new Promise((resolve, reject) => {
      process.send!(envelope, undefined, {}, (error: Error | null) => (error ? reject(error) : resolve()));
    });
  }

  protected override subscribed(): undefined {
    // A 'message' listener keeps the IPC channel (and so the process) alive: only while someone listens.
    if (!this.receiving) {
      this.receiving = true;
      process.on("message", this.receive);
    }
    return undefined;
  }

  protected override async lastUnsubscribed(): Promise<void> {
    if (this.topics.count() === 0) this.stopReceiving();
  }

  protected override async release(): Promise<void> {
    this.stopReceiving();
  }

  private stopReceiving(): void {
    if (!this.receiving) return;
    this.receiving = false;
    process.off("message", this.receive);
  }
}
