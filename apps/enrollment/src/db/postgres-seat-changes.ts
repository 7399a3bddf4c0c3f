import { type Kysely, sql } from "kysely";
import pg from "pg";
import { LocalSeatChanges } from "./seat-changes.ts";

// The PostgreSQL channel every process on the database listens to; the payload is the course id.
const CHANNEL = "course_seats";
// After the listening connection is lost, how long before it is opened again.
const RECONNECT_MS = 1_000;

/**
 * Seat changes across processes: `announce` sends `NOTIFY course_seats, '<course id>'`, and one
 * connection per process, opened when the first stream follows a course, `LISTEN`s and passes each
 * notification to the process's own followers. A lost connection is opened again while anyone
 * follows; changes in between are missed.
 */
export class PostgresSeatChanges extends LocalSeatChanges {
  private readonly url: string;
  private readonly kysely: Kysely<unknown>;
  private listening: Promise<pg.Client> | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(url: string, kysely: Kysely<unknown>) {
    super();
    this.url = url;
    this.kysely = kysely;
  }

  override async announce(courseId: number): Promise<void> {
    await sql`select pg_notify(${CHANNEL}, ${String(courseId)})`.execute(this.kysely);
  }

  override async follow(courseId: number, signal: AbortSignal): Promise<AsyncIterable<void>> {
    const changes = await super.follow(courseId, signal);
    // Once LISTEN runs, no notification can be missed: the caller may read the current count.
    await this.listen();
    return changes;
  }

  override async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const listening = this.listening;
    this.listening = undefined;
    await super.close();
    await listening?.then((client) => client.end()).catch(() => undefined);
  }

  private listen(): Promise<pg.Client> {
    this.listening ??= this.connect().catch((error: unknown) => {
      this.listening = undefined;
      throw error;
    });
    return this.listening;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000 });
    const lost = () => this.lost(client);
    // Unheard, an 'error' of an idle connection would end the process.
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (message) => {
      if (message.channel === CHANNEL && message.payload !== undefined) this.tell(Number(message.payload));
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    return client;
  }

  private lost(client: pg.Client): void {
    client.removeAllListeners("end");
    client.end().catch(() => undefined);
    this.listening = undefined;
    if (this.closed || this.followers() === 0 || this.retry !== undefined) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.closed && this.followers() > 0) this.listen().catch(() => this.lost(client));
    }, RECONNECT_MS);
    this.retry.unref();
  }
}
