import { createHook } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { Readable } from "node:stream";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import fc from "fast-check";
import { headerValue } from "hostile-input";
import { compression, cors, createApp } from "unruffled";
import { HttpResponse, JsonResponse, WebBodySource } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest, sendRaw } from "./send-raw.ts";

const APP = "https://app.example.com";
const ROWS_JSON = JSON.stringify(Array.from({ length: 60 }, (_, id) => ({ id, name: `Student ${id}` })));
const runs = { numRuns: 150 };

// The sources of streamed answers, counted when destroyed: an answer cut short must release its own.
let sourcesDestroyed = 0;
function endlessSource(): Readable {
  let timer: NodeJS.Timeout | undefined;
  return new Readable({
    read() {
      // Random bytes do not compress: zlib passes them on, and the client soon has a first chunk.
      timer = setTimeout(() => this.push(randomBytes(3072).toString("base64")), 1);
    },
    destroy(error, callback) {
      clearTimeout(timer);
      sourcesDestroyed++;
      callback(error);
    },
  });
}

const app = createApp({
  middleware: [cors({ origins: [APP, /^https:\/\/[a-z]+\.example\.org$/] }), compression()],
  routes: [
    path("/rows", {
      endpoint: endpoint({ returns: JsonResponse, handler: () => new JsonResponse(JSON.parse(ROWS_JSON)) }),
    }),
    path("/rows", {
      endpoint: endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ saved: true }) }),
      methods: ["POST"],
      name: "save_rows",
    }),
    path("/stream", {
      endpoint: endpoint({
        returns: HttpResponse,
        handler: () => new HttpResponse(endlessSource(), {}, "text/plain; charset=utf-8"),
      }),
    }),
  ],
});

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(app);
});
afterAll(async () => {
  await server.close();
});

/** The value of a header in a raw answer's head, or undefined. */
function headerOf(head: string, name: string): string | undefined {
  const line = head.split("\r\n").find((each) => each.toLowerCase().startsWith(`${name}:`));
  return line?.slice(name.length + 1).trim();
}

/** Opens a connection, asks for the endless compressed stream, and hangs up once the answer has begun. */
function abortMidStream(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", reject);
    socket.once("data", () => {
      socket.destroy();
      resolve();
    });
    socket.write("GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n\r\n");
  });
}

/** Resolves once `condition` holds, checking at each turn of the event loop; fails after 10 s. */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const hostileOrigins = fc.oneof(
  headerValue([APP, "null", "https://shop.example.org"]),
  fc.constantFrom(
    "null",
    "NULL",
    `${APP}/`,
    `${APP} `,
    `${APP}\t`,
    `${APP}:99999999`,
    "https://shop.example.org.evil.com",
    `https://${"a".repeat(8_000)}.example.org`,
    `${APP},${APP}`,
    "*",
  ),
);

describe("hostile input to CORS and compression", () => {
  it("Origin: long, null, malformed or listed-but-altered values get a clear answer and never an echo", async () => {
    await fc.assert(
      fc.asyncProperty(hostileOrigins, fc.boolean(), async (origin, asPreflight) => {
        const request = asPreflight
          ? rawRequest("OPTIONS", "/rows", { origin, "access-control-request-method": "POST" })
          : rawRequest("GET", "/rows", { origin });
        const answer = await sendRaw(server.port, request);
        expect(answer).toBeDefined();
        // 400: Node's own refusal of a header it cannot parse, or the refused preflight.
        expect([asPreflight ? 204 : 200, 400]).toContain(answer!.status);
        const echoed = headerOf(answer!.head, "access-control-allow-origin");
        // HTTP drops the spaces and tabs around a header value; an origin longer than 512 characters
        // is no origin, whatever pattern it would match.
        const received = origin.replace(/^[ \t]+|[ \t]+$/g, "");
        const allowed =
          received === APP || (received.length <= 512 && /^https:\/\/[a-z]+\.example\.org$/.test(received));
        expect(echoed).toBe(allowed && answer!.status !== 400 ? received : undefined);
      }),
      runs,
    );
  });

  // Straight to app.handle(): HTTP refuses such a value, and so does the test client, as Node's client.
  it("Origin with line breaks (only through app.handle(): HTTP refuses them) is refused, and nothing of it is written", async () => {
    for (const origin of [`${APP}\r\nx-evil: 1`, `\n${APP}`, `${APP}\n`, `${APP}\r`]) {
      const request = app.createRequest({
        method: "GET",
        url: "/rows",
        headers: { host: "localhost", origin },
        socket: undefined,
        body: new WebBodySource(null, null),
      });
      const response = await app.handle(request);
      expect([
        response.status,
        response.headers["access-control-allow-origin"] ?? null,
        response.headers["x-evil"] ?? null,
      ]).toEqual([200, null, null]);
    }
  });

  it("a preflight with a huge or malformed Access-Control-Request-Headers is refused with 400 that says so", async () => {
    const huge = Array.from({ length: 1_400 }, (_, index) => `x-h${index}`).join(", ");
    expect(huge.length).toBeGreaterThan(10_000);
    for (const requested of [huge, "x-ok, x bad", "x-ok, x-\u00e9", ",,,,"]) {
      const answer = await sendRaw(
        server.port,
        rawRequest("OPTIONS", "/rows", {
          origin: APP,
          "access-control-request-method": "POST",
          "access-control-request-headers": requested,
        }),
      );
      if (requested === ",,,,") {
        // Empty items are no names: nothing is asked for, and the preflight passes.
        expect(answer!.status).toBe(204);
        continue;
      }
      expect([
        answer!.status,
        headerOf(answer!.head, "access-control-allow-origin"),
        JSON.parse(answer!.body.toString()),
      ]).toEqual([
        400,
        undefined,
        {
          detail:
            "CORS preflight refused: Access-Control-Request-Headers is not a short list of header names.",
        },
      ]);
    }
  });

  it("Accept-Encoding of 10 KB with odd q-values: the body arrives in a coding the client can read", async () => {
    const entry = fc
      .tuple(
        fc.constantFrom("gzip", "br", "*", "identity", "deflate", "GZIP", " br ", "x-gzip", "", "zstd"),
        fc.array(
          fc.constantFrom(
            ";q=1",
            ";q=0",
            ";q=0.5",
            ";q=1.5",
            ";q=-1",
            ";q=abc",
            ";q=0.0001",
            ";q=1.000",
            ";q=",
            ";Q=0.9",
            ";q=NaN",
            ";q=1e0",
            ";level=9",
            ";;",
            "; q = 0.3 ",
          ),
          { maxLength: 3 },
        ),
      )
      .map(([coding, parameters]) => coding + parameters.join(""));
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 20 }), async (entries) => {
        let header = entries.join(", ");
        while (header.length < 10_000) header += `, ${entries.join(",")}`;
        const answer = await sendRaw(server.port, rawRequest("GET", "/rows", { "accept-encoding": header }));
        expect(answer!.status).toBe(200);
        const coding = headerOf(answer!.head, "content-encoding");
        const body =
          coding === "gzip"
            ? gunzipSync(answer!.body)
            : coding === "br"
              ? brotliDecompressSync(answer!.body)
              : answer!.body;
        expect([coding === undefined || coding === "gzip" || coding === "br", body.toString()]).toEqual([
          true,
          ROWS_JSON,
        ]);
      }),
      { numRuns: 60 },
    );
  });

  it("a client that closes mid-compressed stream leaves the server answering, the source released", async () => {
    const before = sourcesDestroyed;
    await abortMidStream(server.port);
    await eventually(() => sourcesDestroyed === before + 1, "the source to be destroyed");
    const answer = await sendRaw(server.port, rawRequest("GET", "/rows", {}));
    expect([answer!.status, answer!.body.toString()]).toEqual([200, ROWS_JSON]);
  });

  it("1,000 compressed answers cut short leave no zlib stream, socket or timer open", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const liveZlib = new Set<number>();
    const hook = createHook({
      init(id, type) {
        if (type === "ZLIB") liveZlib.add(id);
      },
      destroy(id) {
        liveZlib.delete(id);
      },
    }).enable();
    // What is open now beyond what was open before: a count per kind (sockets, timers, …).
    const openResources = () => process.getActiveResourcesInfo();
    const beyond = (before: string[]) => {
      const left = [...before];
      return openResources().filter((type) => {
        const index = left.indexOf(type);
        if (index >= 0) left.splice(index, 1);
        return index < 0;
      });
    };
    try {
      const resourcesBefore = openResources();
      const destroyedBefore = sourcesDestroyed;
      for (let batch = 0; batch < 50; batch++) {
        await Promise.all(Array.from({ length: 20 }, () => abortMidStream(server.port)));
      }
      await eventually(() => sourcesDestroyed === destroyedBefore + 1_000, "every source to be destroyed");
      await eventually(() => {
        gc();
        return liveZlib.size === 0;
      }, `the zlib streams to be released (${liveZlib.size} open)`);
      await eventually(
        () => beyond(resourcesBefore).length === 0,
        `the sockets and timers of the aborted answers to close (${beyond(resourcesBefore).join(", ")} open)`,
      );
      expect([sourcesDestroyed - destroyedBefore, liveZlib.size, beyond(resourcesBefore)]).toEqual([
        1_000,
        0,
        [],
      ]);
    } finally {
      hook.disable();
    }
  });
});
