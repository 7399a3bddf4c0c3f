// One client process of `npm run bench:ws-broadcast` (forked by bench/websocket-broadcast.ts, told
// what to do over IPC): opens its share of the sockets, waits for each one's "subscribed" message,
// then counts every broadcast message per socket and per sequence number, and the time from its
// publish to its receipt. Its sockets and the server's live in different processes: each side
// holds its own file descriptors.
import { WebSocket } from "ws";
import { DeliveryLedger } from "./delivery-ledger.ts";
import { BUCKETS, bucketOf, sparse } from "./latency-histogram.ts";

/** What the bench tells a client to do. */
export interface ClientTask {
  url: string;
  sockets: number;
  publishes: number;
  /** The local address the sockets connect from: each scenario its own, so ports left in TIME_WAIT do not pile up. */
  localAddress: string;
  /** With no new message for this long after the start, the client reports what it has (missing ones). */
  idleSeconds: number;
}

/** What a client reports once all its sockets are subscribed. */
export interface ClientReady {
  kind: "ready";
  /** Sockets per server process (pid). */
  perPid: Record<string, number>;
  openSeconds: number;
}

/** What a client reports at the end. */
export interface ClientResult {
  kind: "result";
  expected: number;
  /** Every broadcast message received, duplicates included. */
  received: number;
  distinct: number;
  duplicates: number;
  /** Messages older than one this socket had already received. */
  outOfOrder: number;
  /** Messages that were not a broadcast of this run (an unknown sequence number, or unreadable). */
  invalid: number;
  /** Sockets closed by the server before the end, by close code. */
  closedEarly: Record<string, number>;
  histogram: [number, number][];
  /** Latencies from the time each message was due by the pace, not from its publish() call. */
  fromSchedule: [number, number][];
  min: number;
  max: number;
  /** Wall-clock (epoch ms) of the last receipt. */
  lastReceipt: number;
  /** Whether it stopped because nothing came for `idleSeconds`. */
  idle: boolean;
  maxRssMb: number;
  /** The size of the first broadcast message received, as it came (bytes). */
  messageBytes: number;
}

export type ClientMessage = ClientReady | ClientResult | { kind: "failed"; error: string };

/** Sockets opening at once: well under the server's listen backlog (511). */
const OPENING_AT_ONCE = 200;
/** Once every expected message arrived, a late duplicate still counts if it comes within this quiet time. */
const QUIET_MS = 500;

const SEQ = Buffer.from('"seq":');
const SENT = Buffer.from('"sent":');
const DUE = Buffer.from('"due":');
const SUBSCRIBED = Buffer.from('"subscribed"');
const PID = Buffer.from('"pid":');

const now = () => performance.timeOrigin + performance.now();

/** The number after `key` in a JSON text held in bytes, without decoding or parsing the whole text. */
function numberAfter(data: Buffer, key: Buffer): number {
  const at = data.indexOf(key);
  if (at < 0) return Number.NaN;
  let end = at + key.length;
  // Up to the next "," or "}": the fields are numbers.
  while (end < data.length && data[end] !== 0x2c && data[end] !== 0x7d) end++;
  return Number(data.toString("latin1", at + key.length, end));
}

// The sockets, once opened: "close" from the bench ends them at any time.
let sockets: WebSocket[] = [];

// What the bench says, in order, whenever the client gets to read it: the task, then "start".
const inbox: unknown[] = [];
let waiting: ((message: unknown) => void) | undefined;
process.on("message", (message) => {
  if (message === "close") {
    for (const socket of sockets) socket?.terminate();
    process.disconnect();
  } else if (waiting === undefined) inbox.push(message);
  else {
    waiting(message);
    waiting = undefined;
  }
});
function nextMessage<T>(): Promise<T> {
  if (inbox.length > 0) return Promise.resolve(inbox.shift() as T);
  return new Promise((resolve) => (waiting = resolve as (message: unknown) => void));
}

async function fail(error: unknown): Promise<never> {
  await send({
    kind: "failed",
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  process.exit(1);
}

function send(message: ClientMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, undefined, {}, () => resolve()));
}

async function run(task: ClientTask): Promise<void> {
  const { sockets: count, publishes } = task;
  sockets = new Array(count);
  // Per socket and sequence number, how many times it arrived: the exactly-once check.
  const ledger = new DeliveryLedger(count, publishes);
  const subscribedTo: number[] = new Array(count);
  const histogram = new Uint32Array(BUCKETS);
  // The same from the time each message was due by the pace: the publisher's own lag included.
  const fromSchedule = new Uint32Array(BUCKETS);
  const closedEarly: Record<string, number> = {};
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  let lastReceipt = 0;
  let messageBytes = 0;
  let lastReceiptAt = performance.now();
  let subscribed = 0;
  let ending = false;

  let onSubscribed: () => void = () => {};
  const allSubscribed = new Promise<void>((resolve) => (onSubscribed = resolve));

  const receive = (index: number, data: Buffer) => {
    if (subscribedTo[index] === undefined) {
      // The first message of each socket: its handler subscribed it.
      if (data.indexOf(SUBSCRIBED) < 0) {
        void fail(`socket ${index}: a message before "subscribed": ${data}`);
        return;
      }
      subscribedTo[index] = numberAfter(data, PID);
      if (++subscribed === count) onSubscribed();
      return;
    }
    const arrived = now();
    lastReceiptAt = performance.now();
    if (ledger.received === 0) messageBytes = data.length;
    ledger.record(index, numberAfter(data, SEQ));
    const sent = numberAfter(data, SENT);
    const due = numberAfter(data, DUE);
    if (Number.isNaN(sent) || Number.isNaN(due)) return;
    const latency = arrived - sent;
    histogram[bucketOf(latency)]!++;
    fromSchedule[bucketOf(arrived - due)]!++;
    if (latency < min) min = latency;
    if (latency > max) max = latency;
    lastReceipt = arrived;
  };

  const open = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(task.url, { perMessageDeflate: false, localAddress: task.localAddress });
      sockets[index] = socket;
      socket.binaryType = "nodebuffer";
      socket.on("message", (data: Buffer) => receive(index, data));
      socket.once("open", () => resolve());
      // Before "open", the socket did not connect; after, "close" tells the rest.
      socket.on("error", reject);
      socket.once("close", (code) => {
        if (!ending) closedEarly[code] = (closedEarly[code] ?? 0) + 1;
      });
    });

  const opening = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(OPENING_AT_ONCE, count) }, async () => {
      while (next < count) await open(next++);
    }),
  );
  await allSubscribed;
  const perPid: Record<string, number> = {};
  for (const pid of subscribedTo) perPid[pid] = (perPid[pid] ?? 0) + 1;
  await send({ kind: "ready", perPid, openSeconds: (performance.now() - opening) / 1000 });

  // "start": the publishes begin; from now on, silence for idleSeconds means the rest is missing.
  await nextMessage();
  lastReceiptAt = performance.now();
  const idle = await new Promise<boolean>((resolve) => {
    const timer = setInterval(() => {
      const silent = performance.now() - lastReceiptAt;
      if (ledger.missing() === 0 && silent >= QUIET_MS) resolve(false);
      else if (silent >= task.idleSeconds * 1000) resolve(true);
      else return;
      clearInterval(timer);
    }, 50);
  });
  ending = true;
  await send({
    kind: "result",
    expected: ledger.expected,
    received: ledger.received,
    distinct: ledger.distinct,
    duplicates: ledger.duplicates,
    outOfOrder: ledger.outOfOrder,
    invalid: ledger.invalid,
    closedEarly,
    histogram: sparse(histogram),
    fromSchedule: sparse(fromSchedule),
    min: Number.isFinite(min) ? min : 0,
    max,
    lastReceipt,
    idle,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    messageBytes,
  });
  // Then "close" ends it.
}

// A client whose bench went away (killed, crashed) ends with it.
process.once("disconnect", () => process.exit(0));
run(await nextMessage<ClientTask>()).catch(fail);
