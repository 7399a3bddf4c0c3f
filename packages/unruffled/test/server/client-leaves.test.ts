// A client that leaves at any moment of its request leaves nothing behind: 1,000 keep-alive
// connections dropped at seeded random points (before the handler's promise settles, between the
// head and the body, mid-body, mid-stream; keep-alive or `Connection: close`; behind a pipelined
// request) for a streamed file, a compressed answer, an event stream and a handler awaiting a slow
// dependency. Afterwards every count is back at its baseline, and the server answers as before.
import { randomBytes } from "node:crypto";
import { createReadStream, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "process-support";
import { type App, compression, createApp, type Middleware } from "unruffled";
import {
  EventStreamResponse,
  type HttpRequest,
  HttpResponse,
  JsonResponse,
  type ServerSentEvent,
} from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

const DROPS = 1_000;
const AT_ONCE = 50;
const FILE_BYTES = 2 * 1024 * 1024;

// What the server started and released, counted by the test's own sources and hooks.
const counts = {
  dependenciesEntered: 0,
  dependenciesClosed: 0,
  /** Clean-ups of requests whose answer came only after the client left: each saw request.signal aborted. */
  closedAfterLeaving: 0,
  sawClientLeave: 0,
  afterResponseQueued: 0,
  afterResponseRan: 0,
  filesOpened: 0,
  filesClosed: 0,
  zlibStreams: 0,
  zlibClosed: 0,
  iteratorsMade: 0,
  iteratorsReturned: 0,
};

const folder = mkdtempSync(join(tmpdir(), "unruffled-client-leaves-"));
const textFile = join(folder, "large.txt");
writeFileSync(textFile, randomBytes((FILE_BYTES * 3) / 4).toString("base64"));

// Mulberry32: the same "random" points on every run, so that a failure can be replayed.
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The slow dependency every route awaits: `wait` ms, or with `gate=1` until the client has left
 * (then the answer surely comes after the close). Its clean-up tells whether it saw the client leave.
 */
const slowDependency = dependency({
  params: { wait: p.Query(z.int()), gate: p.Query(z.int(), { default: 0 }) },
  async *resolve(request: HttpRequest, { wait, gate }) {
    counts.dependenciesEntered++;
    if (gate === 1) {
      const signal = request.signal;
      if (!signal.aborted)
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    }
    await delay(wait);
    try {
      yield wait;
    } finally {
      counts.dependenciesClosed++;
      if (gate === 1) counts.closedAfterLeaving++;
      if (gate === 1 && request.signal.aborted) counts.sawClientLeave++;
    }
  },
});

/** Work after the answer, queued by every handler: it must run, also for a client that left. */
function queueWork(request: HttpRequest): void {
  counts.afterResponseQueued++;
  request.afterResponse(() => {
    counts.afterResponseRan++;
  });
}

function fileBody(): ReturnType<typeof createReadStream> {
  const stream = createReadStream(textFile);
  counts.filesOpened++;
  stream.once("close", () => counts.filesClosed++);
  return stream;
}

/** Events every few milliseconds from a timer, counted: made, and closed with return(). */
function countedEvents(intervalMs: number): AsyncIterable<ServerSentEvent<{ n: number }>> {
  return {
    [Symbol.asyncIterator]() {
      counts.iteratorsMade++;
      let n = 0;
      let timer: NodeJS.Timeout | undefined;
      let settle: ((result: IteratorResult<ServerSentEvent<{ n: number }>>) => void) | undefined;
      return {
        next: () =>
          new Promise((resolve) => {
            settle = resolve;
            timer = setTimeout(
              () => resolve({ done: false, value: { data: { n: n++ }, id: String(n) } }),
              intervalMs,
            );
          }),
        return: () => {
          counts.iteratorsReturned++;
          clearTimeout(timer);
          settle?.({ done: true, value: undefined });
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
}

const params = { slow: p.Depends(slowDependency) };
const routes = [
  path("/ping", { endpoint: endpoint({ returns: JsonResponse, handler: () => new JsonResponse("pong") }) }),
  path("/file", {
    endpoint: endpoint({
      params,
      returns: HttpResponse,
      handler(request) {
        queueWork(request);
        return new HttpResponse(fileBody(), { headers: { "content-type": "application/octet-stream" } });
      },
    }),
  }),
  path("/compressed", {
    endpoint: endpoint({
      params,
      returns: HttpResponse,
      handler(request) {
        queueWork(request);
        return new HttpResponse(fileBody(), { headers: { "content-type": "text/plain" } });
      },
    }),
  }),
  path("/events", {
    endpoint: endpoint({
      params: { ...params, every: p.Query(z.int()) },
      returns: HttpResponse,
      handler(request, { every }) {
        queueWork(request);
        return new EventStreamResponse(countedEvents(every), { heartbeat: 15 });
      },
    }),
  }),
  path("/slow", {
    endpoint: endpoint({
      params,
      returns: JsonResponse,
      handler(request, { slow }) {
        queueWork(request);
        return new JsonResponse({ waited: slow });
      },
    }),
  }),
];

// Outside compression: sees the zlib stream that is the answer's body, and counts its close.
const countZlib: Middleware = async (request, next) => {
  const response = await next(request);
  if (
    response.headers["content-encoding"] !== undefined &&
    response.body !== null &&
    typeof response.body === "object" &&
    "once" in response.body
  ) {
    counts.zlibStreams++;
    response.body.once("close", () => counts.zlibClosed++);
  }
  return response;
};

let app: App;
let port: number;

beforeAll(async () => {
  app = createApp({
    routes,
    middleware: [countZlib, compression()],
    settings: { LOGGING: { level: "silent" } },
  });
  await app.listen({ port: 0 });
  port = app.address()!.port;
});

afterAll(async () => {
  await app.close({ timeout: 1_000 });
  rmSync(folder, { recursive: true, force: true });
});

type Phase = "before-answer" | "after-leaving" | "head" | "body";

interface Drop {
  target: string;
  phase: Phase;
  keepAlive: boolean;
  pipelined: boolean;
  /** Milliseconds after the request was written, for "before-answer" and "after-leaving". */
  after: number;
  /** Bytes of the body read before leaving, for "body". */
  bodyBytes: number;
}

const TARGETS = ["/file", "/compressed", "/events", "/slow"] as const;
const PHASES: readonly Phase[] = ["before-answer", "after-leaving", "head", "body"];

function plannedDrops(random: () => number): Drop[] {
  return Array.from({ length: DROPS }, (_, index) => {
    const route = TARGETS[index % TARGETS.length]!;
    const phase = PHASES[Math.floor(random() * PHASES.length)]!;
    const wait = Math.floor(random() * 20);
    const every = 1 + Math.floor(random() * 20);
    const gate = phase === "after-leaving" ? 1 : 0;
    const query = `wait=${wait}&gate=${gate}${route === "/events" ? `&every=${every}` : ""}`;
    return {
      target: `${route}?${query}`,
      phase,
      keepAlive: random() < 0.75,
      pipelined: random() < 0.25,
      after: Math.floor(random() * (wait + 5)),
      // The JSON answer of /slow is one small chunk: its "body" point is its first byte.
      bodyBytes: route === "/slow" ? 1 : 1 + Math.floor(random() * (route === "/events" ? 200 : 256 * 1024)),
    };
  });
}

/** One connection that asks and leaves at its planned point; resolves once its socket is closed. */
function dropOne(drop: Drop): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    socket.once("close", () => resolve());
    const connection = drop.keepAlive ? "keep-alive" : "close";
    const ask = `GET ${drop.target} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: ${connection}\r\n\r\n`;
    const before = drop.pipelined ? "GET /ping HTTP/1.1\r\nHost: x\r\n\r\n" : "";
    let received = "";
    let bodyStart = -1;
    socket.once("connect", () => {
      socket.write(before + ask);
      if (drop.phase === "before-answer" || drop.phase === "after-leaving") {
        setTimeout(() => socket.destroy(), drop.after);
      }
    });
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (bodyStart < 0) {
        // The dropped answer's head: after the pipelined /ping's answer, when there is one.
        const answerStart = drop.pipelined ? received.indexOf("HTTP/1.1", 1) : 0;
        const headEnd = answerStart < 0 ? -1 : received.indexOf("\r\n\r\n", answerStart);
        if (headEnd < 0) return;
        bodyStart = headEnd + 4;
        if (drop.phase === "head") socket.destroy();
      }
      if (drop.phase === "body" && received.length - bodyStart >= drop.bodyBytes) socket.destroy();
    });
  });
}

function openDescriptors(): number {
  return readdirSync("/proc/self/fd").length;
}

/** Live handles and requests by kind, sorted: what a leak of sockets, files or timers shows in. */
function activeResources(): string[] {
  return process.getActiveResourcesInfo().sort();
}

/** The counts that must match once the server has seen every client leave. */
function balance() {
  return {
    dependencies: counts.dependenciesEntered - counts.dependenciesClosed,
    afterResponse: counts.afterResponseQueued - counts.afterResponseRan,
    files: counts.filesOpened - counts.filesClosed,
    zlib: counts.zlibStreams - counts.zlibClosed,
    iterators: counts.iteratorsMade - counts.iteratorsReturned,
    signalSeenAfterLeaving: counts.closedAfterLeaving - counts.sawClientLeave,
  };
}

/** A whole answer on a connection of its own, which closes after it. */
function fetchText(target: string, headers: Record<string, string> = {}): Promise<[number, string]> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, path: target, headers, agent: false }, (response) => {
      let text = "";
      response.setEncoding("latin1");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () => resolve([response.statusCode!, text]));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("a client that leaves", () => {
  it("leaves no descriptor, handle, stream, iterator, timer or queued work behind, at any point of its answer", {
    timeout: 120_000,
  }, async () => {
    // A first round of each route warms up what stays (the file's first open, zlib's thread pool).
    for (const target of ["/file?wait=0", "/compressed?wait=0", "/slow?wait=0", "/ping"]) {
      expect((await fetchText(target, { "accept-encoding": "gzip" }))[0]).toBe(200);
    }
    await dropOne({
      target: "/events?wait=0&every=1",
      phase: "body",
      keepAlive: false,
      pipelined: false,
      after: 0,
      bodyBytes: 50,
    });
    const settled = () =>
      Object.values(balance()).every((difference) => difference === 0) ? true : undefined;
    await waitFor("the warm-up's clean-ups", settled, { timeoutMs: 30_000 });
    const baseline = { descriptors: openDescriptors(), resources: activeResources() };

    const drops = plannedDrops(seeded(26));
    for (let start = 0; start < drops.length; start += AT_ONCE) {
      await Promise.all(drops.slice(start, start + AT_ONCE).map(dropOne));
    }

    // The server sees the last closes a moment after the clients: wait for that, with a deadline.
    const atBaseline = () =>
      settled() &&
      openDescriptors() === baseline.descriptors &&
      activeResources().join() === baseline.resources.join()
        ? true
        : undefined;
    await waitFor("every count back at its baseline", atBaseline, { timeoutMs: 30_000 }).catch(() => {});
    expect(balance()).toEqual({
      dependencies: 0,
      afterResponse: 0,
      files: 0,
      zlib: 0,
      iterators: 0,
      signalSeenAfterLeaving: 0,
    });
    expect({ descriptors: openDescriptors(), resources: activeResources() }).toEqual(baseline);
    // Every planned phase happened, and each kind of answer was both started and dropped.
    expect(counts.closedAfterLeaving).toBeGreaterThan(0);
    expect(counts.iteratorsMade).toBeGreaterThan(0);
    expect(counts.zlibStreams).toBeGreaterThan(0);

    // And the server answers as before.
    expect(await fetchText("/ping")).toEqual([200, '"pong"']);
    const [status, text] = await fetchText("/file?wait=0");
    expect([status, text.length]).toEqual([200, FILE_BYTES]);
  });

  it("through app.fetch too: a body stream ready after the web request was aborted is released", async () => {
    let letAnswer = () => {};
    const ready = new Promise<void>((resolve) => {
      letAnswer = resolve;
    });
    const released: string[] = [];
    const late = endpoint({
      returns: HttpResponse,
      async handler(request) {
        request.afterResponse(() => {
          released.push("afterResponse ran");
        });
        await ready;
        const body = fileBody();
        body.once("close", () => released.push("file closed"));
        return new HttpResponse(body, { headers: { "content-type": "application/octet-stream" } });
      },
    });
    const webApp = createApp({ routes: [path("/late", { endpoint: late })] });
    const leaving = new AbortController();
    const answer = webApp.fetch(new Request("http://localhost/late", { signal: leaving.signal }));
    leaving.abort();
    letAnswer();
    expect((await answer).body).toBeNull();
    await waitFor("the file to close", () => (released.length === 2 ? true : undefined));
    expect(released.sort()).toEqual(["afterResponse ran", "file closed"]);
  });
});
