// What unruffled's own request path costs, without sockets: `app.handle()` on the benchmark app
// (servers/unruffled-app.ts) for GET /hello, the validated GET student-list and the same list behind
// a bearer check (a paging dependency and a security scheme), next to the same answer written by
// hand the way servers/raw.ts does (a token comparison, URLSearchParams, integer checks,
// JSON.stringify, Content-Length). Over HTTP a request costs ~20 µs, mostly Node and the kernel, and
// this machine's noise (±10 % per second) hides a change of 100 ns there; here it shows.
//
// `app.handle()` also checks the final headers, which the Node adapter leaves to Node, so the
// overhead printed is a little more than a served request pays. POST bind is left out: in process
// its body would come through the web-stream adapter, not the Node path a server takes.
//
//   npm run bench:overhead                (-- --batches N, --size N)
import { parseArgs } from "node:util";
import { WebBodySource } from "unruffled/http";
import { app } from "./servers/unruffled-app.ts";

const { values } = parseArgs({
  options: { batches: { type: "string", default: "15" }, size: { type: "string", default: "100000" } },
});
const BATCHES = Number(values.batches);
const BATCH_SIZE = Number(values.size);

type Answer = { status: number; body: unknown };

const HEADERS = { host: "127.0.0.1:8000" };
// The secured list's requests carry its token; the others' headers are as they always were.
const SECURE_HEADERS = { ...HEADERS, authorization: "Bearer bench-token" };

function viaUnruffled(url: string): () => Answer {
  const headers = url.includes("/secure-list") ? SECURE_HEADERS : HEADERS;
  return () => {
    const request = app.createRequest({
      method: "GET",
      url,
      headers,
      socket: undefined,
      body: new WebBodySource(null, null),
    });
    return app.handle(request) as Answer;
  };
}

/** servers/raw.ts's rules, answered into an object instead of a socket. */
function byHand(url: string): () => Answer {
  return () => {
    const queryStart = url.indexOf("?");
    const path = queryStart < 0 ? url : url.slice(0, queryStart);
    if (path === "/hello") return answer(200, "text/plain; charset=utf-8", "Hello, World!");
    if (path.endsWith("/secure-list") && SECURE_HEADERS.authorization !== "Bearer bench-token") {
      return answer(401, "application/json", JSON.stringify({ detail: "Not authenticated" }));
    }
    const query = new URLSearchParams(queryStart < 0 ? "" : url.slice(queryStart + 1));
    const page = Number(query.get("page") ?? 1);
    const size = Number(query.get("size") ?? 10);
    if (!Number.isInteger(page) || page < 1 || !Number.isInteger(size) || size < 1 || size > 100) {
      return answer(422, "application/json", JSON.stringify({ detail: "invalid" }));
    }
    return answer(200, "application/json", JSON.stringify({ code: 0, message: "success", data: [] }));
  };
}

function answer(status: number, contentType: string, body: string): Answer {
  return {
    status,
    body: { "content-type": contentType, "content-length": String(Buffer.byteLength(body)), body },
  };
}

/**
 * The fastest batch of each side, in ns per call. Batches alternate so that both sides see the same
 * machine; the minimum, not the median, because other tenants only ever slow a batch down: here
 * the median moves by ±30 % from run to run, the minimum by a few percent.
 */
function measure(sides: Record<string, () => Answer>): Record<string, number> {
  const samples: Record<string, number[]> = {};
  for (const [name, call] of Object.entries(sides)) {
    if (call().status !== 200) throw new Error(`${name} did not answer 200`);
    for (let i = 0; i < BATCH_SIZE; i++) call(); // warm-up: optimised before it is timed
    samples[name] = [];
  }
  for (let batch = 0; batch < BATCHES; batch++) {
    for (const [name, call] of Object.entries(sides)) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < BATCH_SIZE; i++) call();
      samples[name]!.push(Number(process.hrtime.bigint() - started) / BATCH_SIZE);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, Math.min(...list)]));
}

const endpoints = {
  "GET /hello": "/hello",
  "GET /api/enroll/student-list?page=1&size=10": "/api/enroll/student-list?page=1&size=10",
  "GET /api/enroll/secure-list?page=1&size=10": "/api/enroll/secure-list?page=1&size=10",
};
console.log(
  `in-process cost per request, fastest of ${BATCHES} batches of ${BATCH_SIZE} (Node ${process.version})`,
);
console.log("  endpoint                                      unruffled ns  by hand ns  overhead ns");
for (const [label, url] of Object.entries(endpoints)) {
  const result = measure({ unruffled: viaUnruffled(url), byHand: byHand(url) });
  const ours = result.unruffled!;
  const hand = result.byHand!;
  console.log(
    `  ${label.padEnd(44)}  ${ours.toFixed(0).padStart(12)}  ${hand.toFixed(0).padStart(10)}  ${(ours - hand).toFixed(0).padStart(11)}`,
  );
}
