// Broadcast over WebSockets (issue #37): S sockets subscribed to one topic, P publishes of 1 KB with
// the public `publish(app, route, topic, message)`, and for each scenario whether every message
// reached every socket exactly once, in order, and the time from publish to receipt:
//
//   one process       one `unruffled serve`, the app's default broker (memory)
//   across workers    `unruffled serve --workers 2`, the default broker (the primary relays)
//   through PostgreSQL `unruffled serve --workers 2` with postgresPubSub on a private cluster
//
// The app is bench/servers/ws-broadcast-app.ts; the sockets are opened by client processes
// (bench/websocket-broadcast-client.ts), never in a server's process, so each side holds its own
// file descriptors. The bench waits for conditions (every socket subscribed, every delivery in,
// or no new delivery for --idle seconds), never a fixed time. It prints figures; it asserts nothing.
//
//   npm run bench:ws-broadcast   (-- --sockets N --publishes N --rate N --size B --clients N
//                                    --idle S --only one-process,workers,postgres)
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { captureOutput, endProcessGroup, freePort, spawnGroup, waitFor } from "process-support";
import { merge, percentile } from "./latency-histogram.ts";
import type { ClientMessage, ClientReady, ClientResult, ClientTask } from "./websocket-broadcast-client.ts";

const { values } = parseArgs({
  options: {
    sockets: { type: "string", default: "10000" },
    publishes: { type: "string", default: "1000" },
    rate: { type: "string", default: "100" },
    size: { type: "string", default: "1024" },
    clients: { type: "string", default: "2" },
    idle: { type: "string", default: "10" },
    only: { type: "string" },
  },
});
const SOCKETS = Number(values.sockets);
const PUBLISHES = Number(values.publishes);
const RATE = Number(values.rate);
const SIZE = Number(values.size);
const CLIENTS = Math.min(Number(values.clients), SOCKETS);
const IDLE_SECONDS = Number(values.idle);

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLI = fileURLToPath(new URL("../packages/unruffled/src/cli.ts", import.meta.url));
const APP = fileURLToPath(new URL("./servers/ws-broadcast-app.ts", import.meta.url));
const CLIENT = fileURLToPath(new URL("./websocket-broadcast-client.ts", import.meta.url));
/** Generous: on a busy 2-core machine 10,000 handshakes take a while. */
const START_TIMEOUT_MS = 180_000;

interface Scenario {
  name: string;
  workers: number;
  env: Record<string, string>;
  /** Each scenario connects from its own loopback address (ports in TIME_WAIT are per address pair). */
  localAddress: string;
}

const now = () => performance.timeOrigin + performance.now();

/** A server and its clients, ended in `stop()` however the scenario ended. */
class Running {
  server: ChildProcess | undefined;
  clients: ChildProcess[] = [];

  async stop(): Promise<void> {
    // The clients first (they close their sockets and exit), then the server: SIGTERM drains it
    // (its primary ends its workers); whatever is left of its process group after 30 s is killed.
    await Promise.all(this.clients.map((client) => endChild(client, () => client.send("close"), 30_000)));
    this.clients = [];
    const server = this.server;
    if (server === undefined) return;
    await endChild(server, () => server.kill("SIGTERM"), 30_000);
    await endProcessGroup(server);
    if (this.server === server) this.server = undefined;
  }
}

/** Asks a child to end, and kills it if it has not after `timeoutMs`. */
async function endChild(child: ChildProcess, ask: () => void, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    ask();
  } catch {
    // Its channel is gone already: the kill below ends it.
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), timeoutMs)));
  if ((await Promise.race([exited, late])) === "late") {
    child.kill("SIGKILL");
    await exited;
  }
  clearTimeout(timer);
}

/** `promise`, or a rejection naming `what` after `timeoutMs`: a bench that hangs tells why. */
async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves with the next message of `kind` from a client; rejects if it failed or exited. */
function fromClient<T extends ClientMessage>(client: ChildProcess, kind: T["kind"]): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ClientMessage) => {
      if (message.kind === "failed") reject(new Error(`a client failed: ${message.error}`));
      else if (message.kind === kind) resolve(message as T);
      else return;
      cleanUp();
    };
    const onExit = (code: number | null) => {
      cleanUp();
      reject(new Error(`a client exited (code ${code}) before its "${kind}"`));
    };
    const cleanUp = () => {
      client.off("message", onMessage);
      client.off("exit", onExit);
    };
    client.on("message", onMessage);
    client.once("exit", onExit);
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc; undefined once it is gone. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const CLOCK_TICKS = 100;

/** Peak resident memory of a process, in MB, from /proc (while it runs). */
function peakRssMb(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

const ms = (value: number) => (Number.isNaN(value) ? "-" : value < 10 ? value.toFixed(2) : value.toFixed(0));

const COLUMNS: [string, number][] = [
  ["scenario", 18],
  ["sockets", 8],
  ["per process", 13],
  ["pub", 5],
  ["expected", 10],
  ["received", 10],
  ["dup", 5],
  ["missing", 8],
  ["order", 6],
  ["p50 ms", 8],
  ["p90 ms", 8],
  ["p99 ms", 8],
  ["max ms", 8],
  ["wall s", 7],
];

function row(cells: string[]): string {
  return cells
    .map((cell, index) => (index === 0 ? cell.padEnd(COLUMNS[0]![1]) : cell.padStart(COLUMNS[index]![1])))
    .join(" ");
}

async function runScenario(scenario: Scenario, running: Running): Promise<void> {
  const port = await freePort();
  const server = spawnGroup(
    process.execPath,
    [
      "--conditions=source",
      CLI,
      "serve",
      APP,
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--workers",
      String(scenario.workers),
    ],
    { cwd: ROOT, env: { ...process.env, ...scenario.env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  running.server = server;
  const output = captureOutput(server);
  await waitFor(
    `${scenario.workers} "Serving" line(s) from the server`,
    () => {
      if (server.exitCode !== null) throw new Error(`the server exited:\n${output.combined}`);
      return (output.stderr.match(/Serving /g) ?? []).length >= scenario.workers ? true : undefined;
    },
    { timeoutMs: START_TIMEOUT_MS },
  );

  // The sockets, split over the client processes, all subscribed before the first publish.
  const opening = performance.now();
  const clients = Array.from({ length: CLIENTS }, (_, index) => {
    const client = fork(CLIENT, [], {
      execArgv: ["--conditions=source"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    running.clients.push(client);
    const share = Math.floor(SOCKETS / CLIENTS) + (index < SOCKETS % CLIENTS ? 1 : 0);
    const task: ClientTask = {
      url: `ws://127.0.0.1:${port}/feed`,
      sockets: share,
      publishes: PUBLISHES,
      localAddress: scenario.localAddress,
      idleSeconds: IDLE_SECONDS,
    };
    client.send(task);
    return client;
  });
  const ready = await within(
    Promise.all(clients.map((client) => fromClient<ClientReady>(client, "ready"))),
    START_TIMEOUT_MS + SOCKETS * 20,
    `${SOCKETS} sockets opened and subscribed`,
  );
  const openSeconds = (performance.now() - opening) / 1000;
  const perPid = new Map<number, number>();
  for (const each of ready) {
    for (const [pid, count] of Object.entries(each.perPid))
      perPid.set(Number(pid), (perPid.get(Number(pid)) ?? 0) + count);
  }

  // Listening for the results before "start", so that none is missed.
  const results = Promise.all(clients.map((client) => fromClient<ClientResult>(client, "result")));
  // Awaited below; a client failing meanwhile must not be an unhandled rejection that skips the clean-up.
  results.catch(() => {});
  const serverPids = [...perPid.keys()];
  // The processes whose CPU time is told: the server's, its cluster primary (which relays the
  // workers' messages) when it has workers, and the clients.
  const primary = scenario.workers > 1 ? [server.pid!] : [];
  const measured = [...serverPids, ...primary, ...clients.map((client) => client.pid!)];
  const cpuBefore = measured.map(cpuSeconds);
  for (const client of clients) client.send("start");
  const started = now();
  const answer = await fetch(
    `http://127.0.0.1:${port}/publish?count=${PUBLISHES}&rate=${RATE}&size=${SIZE}`,
    {
      method: "POST",
    },
  );
  if (answer.status !== 200)
    throw new Error(`POST /publish answered ${answer.status}: ${await answer.text()}`);
  const published = (await answer.json()) as {
    pid: number;
    published: number;
    failed: number;
    seconds: number;
    behindMs: number;
  };
  const done = await results;
  // Read while the server still runs: its processes' peak memory, and the CPU time each process
  // spent from the first publish to the last delivery (who was the bottleneck).
  const serverRss = serverPids.map((pid) => peakRssMb(pid));
  const cpu = measured.map((pid, index) => {
    const after = cpuSeconds(pid);
    return after === undefined || cpuBefore[index] === undefined
      ? "?"
      : (after - cpuBefore[index]!).toFixed(1);
  });

  const expected = SOCKETS * PUBLISHES;
  const sum = (pick: (result: ClientResult) => number) =>
    done.reduce((total, result) => total + pick(result), 0);
  const distinct = sum((result) => result.distinct);
  const histogram = merge(done.map((result) => result.histogram));
  const fromSchedule = merge(done.map((result) => result.fromSchedule));
  const lastReceipt = Math.max(...done.map((result) => result.lastReceipt));
  const closedEarly: Record<string, number> = {};
  for (const result of done) {
    for (const [code, count] of Object.entries(result.closedEarly))
      closedEarly[code] = (closedEarly[code] ?? 0) + count;
  }
  console.log(
    row([
      scenario.name,
      String(SOCKETS),
      [...perPid.values()].join("+"),
      String(PUBLISHES),
      String(expected),
      String(sum((result) => result.received)),
      String(sum((result) => result.duplicates)),
      String(expected - distinct),
      String(sum((result) => result.outOfOrder)),
      ms(percentile(histogram, 50)),
      ms(percentile(histogram, 90)),
      ms(percentile(histogram, 99)),
      ms(Math.max(...done.map((result) => result.max))),
      ((lastReceipt - started) / 1000).toFixed(1),
    ]),
  );
  const notes = [
    `  sockets by server pid: ${[...perPid].map(([pid, count]) => `${pid}: ${count}`).join(", ")}; opened and subscribed in ${openSeconds.toFixed(1)} s`,
    `; messages of ${Math.max(...done.map((result) => result.messageBytes))} B`,
    `; published ${published.published} from pid ${published.pid} in ${published.seconds.toFixed(1)} s`,
    `, up to ${ms(published.behindMs)} ms behind schedule`,
    ` (from the schedule: p50 ${ms(percentile(fromSchedule, 50))} ms, p99 ${ms(percentile(fromSchedule, 99))} ms)`,
    published.failed > 0 ? ` (${published.failed} publishes FAILED)` : "",
    `; ${Math.round(distinct / Math.max(0.001, (lastReceipt - started) / 1000)).toLocaleString("en")} deliveries/s`,
    `\n  peak RSS MB: server ${serverRss.map((rss) => (rss === undefined ? "?" : rss.toFixed(0))).join("+")}`,
    `, clients ${done.map((result) => result.maxRssMb.toFixed(0)).join("+")}`,
    `; CPU s while publishing: server ${cpu.slice(0, serverPids.length).join("+")}`,
    primary.length > 0 ? `, primary ${cpu[serverPids.length]}` : "",
    `, clients ${cpu.slice(serverPids.length + primary.length).join("+")}`,
    `; min latency ${ms(Math.min(...done.map((result) => result.min)))} ms`,
    sum((result) => result.invalid) > 0 ? `; ${sum((result) => result.invalid)} INVALID messages` : "",
    Object.keys(closedEarly).length > 0
      ? `; sockets closed early by code: ${JSON.stringify(closedEarly)}`
      : "",
    done.some((result) => result.idle) ? `; stopped after ${IDLE_SECONDS} s without a delivery` : "",
  ];
  console.log(notes.join(""));
}

let interrupted = false;

async function main(): Promise<void> {
  const wanted = (name: string) => values.only === undefined || values.only.split(",").includes(name);
  const scenarios: (Scenario & { key: string })[] = [
    { key: "one-process", name: "one process", workers: 1, env: {}, localAddress: "127.0.0.2" },
    { key: "workers", name: "across workers", workers: 2, env: {}, localAddress: "127.0.0.3" },
    { key: "postgres", name: "through PostgreSQL", workers: 2, env: {}, localAddress: "127.0.0.4" },
  ].filter((scenario) => wanted(scenario.key));

  const running = new Running();
  let postgres: { stop(): Promise<void> } | undefined;
  // Ctrl-C or a kill: the server and clients are stopped, which fails what the scenario awaits; the
  // finally blocks below stop the rest (PostgreSQL), then the bench exits.
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  function interrupt(signal: NodeJS.Signals): void {
    if (interrupted) return;
    interrupted = true;
    console.error(`${signal}: stopping`);
    void running.stop();
  }
  // The last resort if the bench dies anyway: the server's process group (PostgreSQL's own helper
  // stops its cluster on exit too).
  process.once("exit", () => {
    if (running.server?.pid === undefined) return;
    try {
      process.kill(-running.server.pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  });

  try {
    const postgresScenario = scenarios.find((scenario) => scenario.key === "postgres");
    if (postgresScenario !== undefined) {
      const { startTestPostgres } = await import("../apps/enrollment/test/support/postgres.ts");
      const server = await startTestPostgres();
      postgres = server;
      postgresScenario.env = { BENCH_PUBSUB: "postgres", DATABASE_URL: await server.createDatabase() };
    }
    console.log(
      `Broadcast over WebSockets: ${SOCKETS} sockets (from ${CLIENTS} client processes), ${PUBLISHES} publishes of ~${SIZE} B paced at ${RATE}/s` +
        ` (${(SOCKETS * RATE).toLocaleString("en")} deliveries/s asked: where the machine delivers fewer, the latency includes that queueing)`,
    );
    console.log(
      "  per process: sockets each server process holds; order: messages older than one the socket had; latency: publish() → receipt, within 0.5 %",
    );
    console.log(row(COLUMNS.map(([title]) => title)));
    for (const scenario of scenarios) {
      try {
        await runScenario(scenario, running);
      } finally {
        await running.stop();
      }
    }
  } finally {
    await postgres?.stop();
  }
}

try {
  await main();
} catch (error) {
  if (!interrupted) throw error;
}
if (interrupted) process.exit(130);
