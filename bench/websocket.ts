// 1 KB echo over WebSockets: messages per second of an unruffled `websocket()` route (validated
// inbound, outbound through its serializer, backpressure checks) next to a bare `ws` server that
// echoes the bytes it gets, in interleaved rounds on this machine. Each server runs in its own
// process; the clients run here. It prints ratios; it asserts nothing. With `--runtime bun` both
// run on Bun: unruffled served by `serve()` (Bun.serve's own WebSockets) next to a bare `Bun.serve`
// echo.
//
//   npm run bench:ws                    (-- --rounds N, --seconds N, --clients N, --window N, --runtime bun)
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { WebSocket, WebSocketServer } from "ws";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "4" },
    seconds: { type: "string", default: "3" },
    clients: { type: "string", default: "8" },
    window: { type: "string", default: "16" },
    runtime: { type: "string", default: "node" },
  },
});

const BUN = fileURLToPath(new URL("../node_modules/.bin/bun", import.meta.url));

const MESSAGE = JSON.stringify({ type: "echo", text: "x".repeat(1024 - 28) });

/** Bun's own server, echoing what it gets: the reference on Bun. */
interface BunGlobal {
  serve(options: {
    port: number;
    hostname: string;
    fetch(request: Request, server: { upgrade(request: Request): boolean }): Response | undefined;
    websocket: {
      message(socket: { send(data: string | Uint8Array): number }, data: string | Uint8Array): void;
    };
  }): { port: number };
}

async function serve(kind: string): Promise<void> {
  if (kind === "bun") {
    const bun = (globalThis as unknown as { Bun: BunGlobal }).Bun;
    const server = bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request, server) => (server.upgrade(request) ? undefined : new Response("no", { status: 400 })),
      websocket: { message: (socket, data) => void socket.send(data) },
    });
    console.log(`PORT ${server.port}`);
    return;
  }
  if (kind === "ws") {
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1", perMessageDeflate: false });
    await once(server, "listening");
    server.on("connection", (socket) =>
      socket.on("message", (data, isBinary) => socket.send(data, { binary: isBinary })),
    );
    console.log(`PORT ${(server.address() as { port: number }).port}`);
    return;
  }
  const { createApp, serve } = await import("unruffled");
  const { path } = await import("unruffled/route");
  const { websocket } = await import("unruffled/websocket");
  const { z } = await import("zod");
  const Message = z.object({ type: z.literal("echo"), text: z.string() });
  const echo = websocket({
    inbound: Message,
    outbound: Message,
    async handler(socket) {
      for await (const message of socket) await socket.send(message);
    },
  });
  const app = createApp({
    routes: [path("/", { websocket: echo })],
    settings: { LOGGING: { access_log: false } },
  });
  // serve(): Node's http (its upgrades through ws) on Node, Bun.serve's own WebSockets on Bun.
  const server = await serve(app, { port: 0 });
  console.log(`PORT ${server.port}`);
}

/** A process's CPU time so far, in seconds (user + system, from /proc: Linux). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command; in clock ticks.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Rate {
  /** Messages echoed per second of wall time. */
  wall: number;
  /** Messages echoed per second of the server's CPU time: what the server costs, whoever else is busy. */
  cpu: number;
}

/** Messages echoed per second by one server, with `clients` sockets each keeping `window` messages in flight. */
async function measure(kind: string, seconds: number, clients: number, window: number): Promise<Rate> {
  const runtime = values.runtime === "bun" ? BUN : process.execPath;
  const child = spawn(runtime, [fileURLToPath(import.meta.url), "serve", kind], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /PORT (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
  });
  const sockets = await Promise.all(
    Array.from({ length: clients }, async () => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false });
      await once(socket, "open");
      return socket;
    }),
  );
  let counting = false;
  let echoed = 0;
  let stop = false;
  for (const socket of sockets) {
    socket.on("message", () => {
      if (counting) echoed++;
      if (!stop) socket.send(MESSAGE);
    });
    for (let index = 0; index < window; index++) socket.send(MESSAGE);
  }
  await new Promise((resolve) => setTimeout(resolve, 500)); // warm-up
  counting = true;
  const started = performance.now();
  const cpuBefore = cpuSecondsOf(child.pid!);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const rate = {
    wall: echoed / ((performance.now() - started) / 1000),
    cpu: echoed / (cpuSecondsOf(child.pid!) - cpuBefore),
  };
  stop = true;
  counting = false;
  for (const socket of sockets) socket.terminate();
  child.kill();
  await once(child, "exit");
  return rate;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

if (positionals[0] === "serve") {
  await serve(positionals[1]!);
} else {
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const clients = Number(values.clients);
  const window = Number(values.window);
  // The reference: a bare ws server on Node, Bun's own server on Bun.
  const reference = values.runtime === "bun" ? "bun" : "ws";
  const label = reference === "bun" ? "Bun.serve" : "ws";
  const rates: Record<string, Rate[]> = { [reference]: [], unruffled: [] };
  console.log(
    `1 KB echo on ${values.runtime}, ${clients} sockets × ${window} in flight, ${rounds} rounds of ${seconds} s`,
  );
  for (let round = 1; round <= rounds; round++) {
    // Interleaved, and the order swapped every round: the machine's drift falls on both.
    const order = round % 2 === 1 ? [reference, "unruffled"] : ["unruffled", reference];
    for (const kind of order) rates[kind]!.push(await measure(kind, seconds, clients, window));
    const [bare, unruffled] = [rates[reference]!.at(-1)!, rates.unruffled!.at(-1)!];
    console.log(
      `round ${round}: ${label} ${Math.round(bare.wall)} msg/s (${Math.round(bare.cpu)} per CPU-s), unruffled ${Math.round(unruffled.wall)} msg/s (${Math.round(unruffled.cpu)} per CPU-s), ratio ${(unruffled.wall / bare.wall).toFixed(3)} (per CPU-s ${(unruffled.cpu / bare.cpu).toFixed(3)})`,
    );
  }
  const ratios = (side: keyof Rate) =>
    rates.unruffled!.map((rate, index) => rate[side] / rates[reference]![index]![side]);
  const medianOf = (kind: string, side: keyof Rate) =>
    Math.round(median(rates[kind]!.map((rate) => rate[side])));
  console.log(
    `median: ${label} ${medianOf(reference, "wall")} msg/s, unruffled ${medianOf("unruffled", "wall")} msg/s; unruffled/${label} ${median(ratios("wall")).toFixed(3)} (target ≥ 0.90)`,
  );
  // The clients run in this process: when they, not the server, set the pace, msg/s ties; the
  // server's CPU per message still tells the two servers apart.
  console.log(
    `median per server CPU-second: ${label} ${medianOf(reference, "cpu")}, unruffled ${medianOf("unruffled", "cpu")}; unruffled/${label} ${median(ratios("cpu")).toFixed(3)}`,
  );
}
