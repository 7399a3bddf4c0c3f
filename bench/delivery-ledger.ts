/**
 * The exactly-once check of a broadcast: per socket and per sequence number, how many times the
 * message arrived (a byte each: sockets × publishes bytes), and per socket the highest sequence
 * number seen, so that a message older than one already received counts as out of order.
 *
 * @example const ledger = new DeliveryLedger(500, 100); ledger.record(3, 0); ledger.missing(); // 49_999
 */
export class DeliveryLedger {
  /** Every message recorded, duplicates and invalid ones included. */
  received = 0;
  /** (socket, sequence number) pairs that arrived at least once. */
  distinct = 0;
  /** Arrivals of a pair that had arrived before. */
  duplicates = 0;
  /** Arrivals older than one their socket had already received. */
  outOfOrder = 0;
  /** Arrivals whose sequence number is not one of this run's. */
  invalid = 0;
  readonly sockets: number;
  readonly publishes: number;
  private readonly counts: Uint8Array;
  private readonly highest: Int32Array;

  constructor(sockets: number, publishes: number) {
    this.sockets = sockets;
    this.publishes = publishes;
    this.counts = new Uint8Array(sockets * publishes);
    this.highest = new Int32Array(sockets).fill(-1);
  }

  /** Every (socket, sequence number) pair: what exactly-once delivers. */
  get expected(): number {
    return this.sockets * this.publishes;
  }

  /** Pairs that never arrived. */
  missing(): number {
    return this.expected - this.distinct;
  }

  /** One arrival of message `seq` on socket `socket`. */
  record(socket: number, seq: number): void {
    this.received++;
    if (!Number.isInteger(seq) || seq < 0 || seq >= this.publishes) {
      this.invalid++;
      return;
    }
    const cell = socket * this.publishes + seq;
    const seen = this.counts[cell]!;
    if (seen === 0) this.distinct++;
    else this.duplicates++;
    if (seen < 255) this.counts[cell] = seen + 1;
    if (seq < this.highest[socket]!) this.outOfOrder++;
    else this.highest[socket] = seq;
  }
}
