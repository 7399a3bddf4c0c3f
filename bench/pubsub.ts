// Publish/subscribe figures: the time from publish() to the listener across two processes, through
// Redis, through PostgreSQL and across two workers of one machine (and within one process), and the
// publishes per second one process sustains. Starts its own redis-server and PostgreSQL cluster
// (or uses TEST_DATABASE_URL). Figures on a shared 2-core machine move from run to run: compare the
// brokers within one run.
//
//   npm run bench:pubsub                 (-- --messages N  --seconds S  --only memory,workers,redis,postgres)
import { type ChildProcess, fork } from "node:child_process";
import cluster from "node:cluster";
import { createServer } from "node:net";
import { parseArgs } from "node:util";
import { defaultPubSub, memoryPubSub, type PubSub, postgresPubSub, redisPubSub } from "unruffled/pubsub";
import { runWorkers } from "../packages/unruffled/src/server/workers.ts";

const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "2000" },
    seconds: { type: "string", default: "2" },
    role: { type: "string" },
    broker: { type: "string" },
    url: { type: "string" },
    only: { type: "string" },
  },
});
const MESSAGES = Number(values.messages);
const SECONDS = Number(values.seconds);
const TOPIC = "bench";
const SILENT = { warn() {}, error() {} };
const sizeArguments = ["--messages", String(MESSAGES), "--seconds", String(SECONDS)];

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes. */
const now = () => performance.timeOrigin + performance.now();

function open(broker: string, url: string | undefined): PubSub {
  if (broker === "redis") return redisPubSub({ url: url!, log: SILENT });
  if (broker === "postgres") return postgresPubSub({ connectionString: url!, log: SILENT });
  if (broker === "workers") return defaultPubSub({ log: SILENT });
  return memoryPubSub({ log: SILENT });
}

/** Subscribes, says "ready", records each message's delay, and prints them at "end". */
async function subscriber(pubsub: PubSub, report: (delays: number[]) => void, ready: () => Promise<void>) {
  const delays: number[] = [];
  await pubsub.subscribe(TOPIC, (message) => {
    if (message === "end") return report(delays);
    delays.push(now() - Number(message.slice(0, message.indexOf(" "))));
  });
  await ready();
}

/** Publishes MESSAGES, about one a millisecond (a light load, so delays are not queueing), then "end". */
async function publishPaced(pubsub: PubSub): Promise<void> {
  const padding = "x".repeat(100);
  for (let index = 0; index < MESSAGES; index++) {
    await pubsub.publish(TOPIC, `${now()} ${padding}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await pubsub.publish(TOPIC, "end");
}

/** How many publishes one process completes per second, 100 in flight at a time. */
async function publishRate(pubsub: PubSub): Promise<number> {
  const message = "x".repeat(100);
  const until = performance.now() + SECONDS * 1_000;
  let count = 0;
  const started = performance.now();
  while (performance.now() < until) {
    await Promise.all(Array.from({ length: 100 }, () => pubsub.publish("rate", message)));
    count += 100;
  }
  return count / ((performance.now() - started) / 1_000);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(name: string, delays: number[], rate: number | undefined): string {
  const sorted = [...delays].sort((a, b) => a - b);
  const cells = [
    name.padEnd(34),
    `${delays.length}`.padStart(6),
    `${percentile(sorted, 50).toFixed(3)} ms`.padStart(11),
    `${percentile(sorted, 99).toFixed(3)} ms`.padStart(11),
    rate === undefined ? "" : `${Math.round(rate).toLocaleString("en")}/s`.padStart(12),
  ];
  return cells.join("  ");
}

// A child: a subscriber in another process, told by its parent over IPC.
if (values.role === "subscriber") {
  const pubsub = open(values.broker!, values.url);
  await subscriber(
    pubsub,
    (delays) => {
      process.send!({ delays }, () => {
        void pubsub.close().then(() => process.exit(0));
      });
    },
    async () => void process.send!({ ready: true }),
  );
} else if (values.role === "cluster" || cluster.isWorker) {
  // Two workers of one primary: worker 2 subscribes and tells worker 1, which publishes.
  await runWorkers({
    workers: 2,
    start: async () => {
      // runWorkers starts worker 2 once worker 1 listens.
      await new Promise<void>((resolve) => createServer().listen(0, "127.0.0.1", resolve));
      const pubsub = open("workers", undefined);
      if (process.env.UNRUFFLED_WORKER === "2") {
        await subscriber(
          pubsub,
          (delays) => console.log(JSON.stringify({ delays })),
          () => pubsub.publish("ready", "2"),
        );
        return;
      }
      await pubsub.subscribe("ready", () => {
        void (async () => {
          await publishPaced(pubsub);
          console.log(JSON.stringify({ rate: await publishRate(pubsub) }));
        })();
      });
    },
    log: { info() {}, error: (line) => console.error(line) },
  });
} else {
  await main();
}

async function acrossProcesses(broker: string, url: string): Promise<string> {
  const child = fork(
    import.meta.filename,
    ["--role", "subscriber", "--broker", broker, "--url", url, ...sizeArguments],
    {
      execArgv: ["--conditions=source"],
    },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const delays = new Promise<number[]>((resolve) => {
    child.on("message", (message: { delays?: number[] }) => {
      if (message.delays) resolve(message.delays);
    });
  });
  await new Promise<void>((resolve) => child.once("message", () => resolve()));
  const publisher = open(broker, url);
  await publishPaced(publisher);
  const received = await delays;
  const rate = await publishRate(publisher);
  await publisher.close();
  await exited;
  return summary(`${broker}, two processes`, received, rate);
}

async function acrossWorkers(): Promise<string> {
  const child: ChildProcess = fork(import.meta.filename, ["--role", "cluster", ...sizeArguments], {
    execArgv: ["--conditions=source"],
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  let output = "";
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const results = new Promise<{ delays: number[]; rate: number }>((resolve) => {
    const found: { delays?: number[]; rate?: number } = {};
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      for (const line of output.split("\n").slice(0, -1)) Object.assign(found, JSON.parse(line));
      output = output.slice(output.lastIndexOf("\n") + 1);
      if (found.delays && found.rate !== undefined) resolve(found as { delays: number[]; rate: number });
    });
  });
  const { delays, rate } = await results;
  child.kill("SIGTERM");
  await exited;
  return summary("workers, two workers of one primary", delays, rate);
}

async function inOneProcess(): Promise<string> {
  const pubsub = memoryPubSub({ log: SILENT });
  let report: (delays: number[]) => void = () => {};
  const delays = new Promise<number[]>((resolve) => (report = resolve));
  await subscriber(pubsub, report, async () => {});
  await publishPaced(pubsub);
  const line = summary("memory, one process", await delays, await publishRate(pubsub));
  await pubsub.close();
  return line;
}

async function main(): Promise<void> {
  const { startRedis } = await import("../packages/unruffled/test/pubsub/support/redis-server.ts");
  const { startTestPostgres } = await import("../apps/enrollment/test/support/postgres.ts");
  const redis = await startRedis();
  const postgres = await startTestPostgres();
  try {
    const databaseUrl = await postgres.createDatabase();
    console.log(`${MESSAGES} messages of ~120 bytes, paced; then ${SECONDS} s of publishes, 100 in flight`);
    console.log(
      [
        "broker".padEnd(34),
        "got".padStart(6),
        "p50".padStart(11),
        "p99".padStart(11),
        "publishes".padStart(12),
      ].join("  "),
    );
    const wanted = (name: string) => values.only === undefined || values.only.split(",").includes(name);
    if (wanted("memory")) console.log(await inOneProcess());
    if (wanted("workers")) console.log(await acrossWorkers());
    if (wanted("redis")) console.log(await acrossProcesses("redis", redis.url));
    if (wanted("postgres")) console.log(await acrossProcesses("postgres", databaseUrl));
  } finally {
    await redis.stop();
    await postgres.stop();
  }
}
