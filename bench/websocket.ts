// 1 KB echo over WebSockets: messages per second of an unruffled `websocket()` route (validated
// inbound, outbound through its serializer, backpressure checks) next to a bare `ws` server that
// echoes the bytes it gets, in interleaved rounds on this machine. Each server runs in its own
// process; the clients run here. It prints ratios; it asserts nothing.
//
//   npm run bench:ws                    (-- --rounds N, --seconds N, --clients N, --window N)
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
  },
});

const MESSAGE = JSON.stringify({ type: "echo", text: "x".repeat(1024 - 28) });

async function serve(kind: string): Promise<void> {
  if (kind === "ws") {
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1", perMessageDeflate: false });
    await once(server, "listening");
    server.on("connection", (socket) =>
      socket.on("message", (data, isBinary) => socket.send(data, { binary: isBinary })),
    );
    console.log(`PORT ${(server.address() as { port: number }).port}`);
    return;
  }
  const { createApp } = await import("unruffled");
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
  await app.listen({ port: 0 });
  console.log(`PORT ${app.address()!.port}`);
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
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "serve", kind], {
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
  const rates: Record<string, Rate[]> = { ws: [], unruffled: [] };
  console.log(`1 KB echo, ${clients} sockets × ${window} in flight, ${rounds} rounds of ${seconds} s`);
  for (let round = 1; round <= rounds; round++) {
    // Interleaved, and the order swapped every round: the machine's drift falls on both.
    const order = round % 2 === 1 ? ["ws", "unruffled"] : ["unruffled", "ws"];
    for (const kind of order) rates[kind]!.push(await measure(kind, seconds, clients, window));
    const [ws, unruffled] = [rates.ws!.at(-1)!, rates.unruffled!.at(-1)!];
    console.log(
      `round ${round}: ws ${Math.round(ws.wall)} msg/s (${Math.round(ws.cpu)} per CPU-s), unruffled ${Math.round(unruffled.wall)} msg/s (${Math.round(unruffled.cpu)} per CPU-s), ratio ${(unruffled.wall / ws.wall).toFixed(3)} (per CPU-s ${(unruffled.cpu / ws.cpu).toFixed(3)})`,
    );
  }
  const ratios = (side: keyof Rate) =>
    rates.unruffled!.map((rate, index) => rate[side] / rates.ws![index]![side]);
  const medianOf = (kind: string, side: keyof Rate) =>
    Math.round(median(rates[kind]!.map((rate) => rate[side])));
  console.log(
    `median: ws ${medianOf("ws", "wall")} msg/s, unruffled ${medianOf("unruffled", "wall")} msg/s; unruffled/ws ${median(ratios("wall")).toFixed(3)} (target ≥ 0.90)`,
  );
  // The clients run in this process: when they, not the server, set the pace, msg/s ties; the
  // server's CPU per message still tells the two servers apart.
  console.log(
    `median per server CPU-second: ws ${medianOf("ws", "cpu")}, unruffled ${medianOf("unruffled", "cpu")}; unruffled/ws ${median(ratios("cpu")).toFixed(3)}`,
  );
}
