// Every request without an id of its own gets `<prefix>-<counter>`. Turning the counter into its
// decimal digits on every request showed at 4–10 % self in Bun's profile of a small answer (a
// template string of a number); here the last three digits come from a table made once, and the
// digits above them are written once per thousand ids: one concatenation an id.
const LAST_DIGITS = 1000;
const UNPADDED: readonly string[] = Array.from({ length: LAST_DIGITS }, (_, index) => String(index));
const PADDED: readonly string[] = UNPADDED.map((digits) => digits.padStart(3, "0"));

/**
 * `<prefix>1`, `<prefix>2`, …: the same strings as `` `${prefix}${count}` ``, made more cheaply.
 *
 * @example const ids = new CountedIds("Xk3vQ9aB-"); ids.next(); // "Xk3vQ9aB-1"
 */
export class CountedIds {
  private readonly prefix: string;
  /** The prefix and the digits above the last three, once the counter has them. */
  private head: string;
  private thousands = 0;
  private last = 0;

  constructor(prefix: string) {
    this.prefix = prefix;
    this.head = prefix;
  }

  next(): string {
    if (++this.last === LAST_DIGITS) {
      this.last = 0;
      this.head = `${this.prefix}${++this.thousands}`;
    }
    return this.thousands === 0 ? this.head + UNPADDED[this.last]! : this.head + PADDED[this.last]!;
  }
}
