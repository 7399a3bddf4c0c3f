// `unruffled serve --workers 2` on Bun: Bun's node:cluster forks the workers, which share the port
// (Bun.serve's reusePort), the primary relays the default broker's messages, counts the
// workers' rate limits and replaces a worker that dies, and SIGTERM stops them all with exit code 0.
// On Node and Bun, SIGTERM drains each worker's WebSockets too (docs/websockets.md, Lifecycle).
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { endProcessGroups, waitFor } from "process-support";
import { afterAll, expect, it } from "vitest";
import WebSocket from "ws";
import { type RuntimeName, type ServedApp, serveCommand, startOn } from "./runtime-process.ts";

const fixture = fileURLToPath(new URL("./workers-fixture-app.ts", import.meta.url));

afterAll(endProcessGroups);

/** A request on a connection of its own (the kernel spreads connections, not requests): its body. */
async function fresh(origin: string, path: string, method = "GET"): Promise<string> {
  return (await freshAnswer(origin, path, method)).body;
}

function freshAnswer(
  origin: string,
  path: string,
  method = "GET",
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${origin}${path}`, { method, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        text += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** `unruffled serve --workers 2` on `runtime`, once both workers said where they serve. */
async function serveTwo(runtime: RuntimeName, label: string, extra: string[] = []): Promise<ServedApp> {
  const served = await startOn(
    runtime,
    serveCommand(runtime, fixture, ["--workers", "2", ...extra]),
    {},
    new RegExp(`on http://127\\.0\\.0\\.1:(\\d+) \\(pid \\d+ worker \\d+, ${label}`),
  );
  await waitFor("both workers to serve", () =>
    (served.output.combined.match(new RegExp(` worker \\d, ${label} [\\d.]+(, [^)]+)?\\)\\n`, "g"))?.length ??
      0) >= 2
      ? true
      : undefined,
  );
  return served;
}

/** Both workers answer: the kernel hands new connections to either. */
async function answeredByBoth(served: ServedApp): Promise<Set<string>> {
  const pids = new Set<string>();
  await waitFor("an answer from each worker", async () => {
    pids.add(await fresh(served.origin, "/pid"));
    return pids.size >= 2 ? true : undefined;
  });
  return pids;
}

/** The workers count one rate limit together (workerStore()): 20 an hour, whichever answers. */
async function countedTogether(served: ServedApp): Promise<void> {
  const answers = [];
  for (let index = 0; index < 30; index++) answers.push(await freshAnswer(served.origin, "/limited"));
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(20);
  expect(answers.filter((answer) => answer.status === 429)).toHaveLength(10);
  expect(new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.body)).size).toBe(
    2,
  );
}

it.each([["bun", "Bun"]] as const)(
  "on %s, two workers share a port, a topic and a rate limit, a killed one is replaced, SIGTERM stops them",
  async (runtime, label) => {
    const served = await serveTwo(runtime, label);
    expect(served.output.combined).not.toContain("node:http");
    await answeredByBoth(served);

    // A socket in one worker, a publish answered by the other: the message crosses the primary.
    const socket = new WebSocket(`${served.origin.replace("http", "ws")}/news`);
    const messages: { headline: string; pid: number }[] = [];
    socket.on("message", (data) => messages.push(JSON.parse(String(data))));
    await waitFor("the subscription", () => (messages.length >= 1 ? true : undefined));
    const socketPid = String(messages[0]!.pid);
    let publisherPid = socketPid;
    for (let attempt = 0; attempt < 200 && publisherPid === socketPid; attempt++) {
      publisherPid = await fresh(served.origin, `/news?headline=from-${attempt}`, "POST");
    }
    expect(publisherPid).not.toBe(socketPid);
    await waitFor("the other worker's headline", () =>
      messages.some((message) => String(message.pid) === publisherPid) ? true : undefined,
    );
    socket.close(1000);

    await countedTogether(served);

    // A worker killed outright is replaced, and the new one serves.
    process.kill(Number(socketPid), "SIGKILL");
    await waitFor("the replacement to start", () =>
      /exited by SIGKILL; replacing it in \d+ ms\n[\s\S]*worker \d \(pid \d+\) started/.test(
        served.output.combined,
      )
        ? true
        : undefined,
    );
    const after = await answeredByBoth(served);
    expect(after.has(socketPid)).toBe(false);

    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
  },
  60_000,
);

/** `unruffled serve --workers 2` on Node (whose lines name no runtime), once both workers serve. */
async function serveTwoOnNode(): Promise<ServedApp> {
  const served = await startOn(
    "node",
    serveCommand("node", fixture, ["--workers", "2"]),
    {},
    /on http:\/\/127\.0\.0\.1:(\d+) \(pid \d+ worker \d+\)/,
  );
  await waitFor("both workers to serve", () =>
    (served.output.combined.match(/ \(pid \d+ worker \d+\)\n/g)?.length ?? 0) >= 2 ? true : undefined,
  );
  return served;
}

it.each([
  ["node", "Node"],
  ["bun", "Bun"],
] as const)(
  "on %s, SIGTERM to the primary sends 1001 to each worker's open sockets, and the server exits 0",
  async (runtime, label) => {
    const served = runtime === "bun" ? await serveTwo(runtime, label) : await serveTwoOnNode();
    // Sockets until both workers hold one: the kernel spreads connections between them.
    const sockets: { pid: number; closed: Promise<[number, string]> }[] = [];
    for (let attempt = 0; attempt < 50 && new Set(sockets.map((socket) => socket.pid)).size < 2; attempt++) {
      const socket = new WebSocket(`${served.origin.replace("http", "ws")}/news`);
      const closed = new Promise<[number, string]>((resolve) =>
        socket.once("close", (code, reason) => resolve([code, String(reason)])),
      );
      const first = await new Promise<{ pid: number }>((resolve) =>
        socket.once("message", (data) => resolve(JSON.parse(String(data)))),
      );
      sockets.push({ pid: first.pid, closed });
    }
    expect(new Set(sockets.map((socket) => socket.pid)).size).toBe(2);
    served.child.kill("SIGTERM");
    for (const socket of sockets) expect(await socket.closed).toEqual([1001, "The server is shutting down"]);
    expect(await served.exited).toBe(0);
  },
  60_000,
);
