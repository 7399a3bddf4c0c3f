// Bun's raw server doing only what unruffled promises of every answer beyond the raw server's rules:
// the client's `x-request-id` kept when acceptable (else a new id), echoed in the answer, and the
// Host header checked (docs/logging.md, RFC 9112 §3.2). Each fixed path is one of `Bun.serve`'s own
// routes, as Elysia's are, and a text answer keeps Bun's default content type, as Elysia's does:
// the least work a server keeping unruffled's request contract can do on Bun, so the line any
// implementation of that contract (unruffled's included) is measured against. Elysia keeps no such
// contract: it reads no request header on hello and the list, and sends no id.
import { listIssues, rawFetch } from "./raw-handler.ts";

type Handler = (request: Request) => Response | Promise<Response>;
type BunServe = { serve(options: object): { port: number } };

// The ids a client may choose, and the shape of a new one, as unruffled's (logging/request-id.ts).
const ACCEPTED_ID = /^[\w.:+/=@-]{1,128}$/;
const PREFIX = Math.random().toString(36).slice(2, 10);
let counter = 0;

// One host[:port]; a request hears the same Host as the one before it, which is not checked again.
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[\w.~!$&'()*+,;=%-]+)(:\d{0,5})?$/;
let lastValidHost: string | null = null;

const BAD_HOST = { status: 400, headers: { "content-type": "application/json; charset=utf-8" } };

// WITHOUT_CONTRACT set (raw-routed.ts): the same server reading no header and sending no id.
const KEEPS_CONTRACT = process.env.WITHOUT_CONTRACT === undefined;

/** The request's id, or the 400 to a request whose Host cannot be served. */
function contract(request: Request): string | Response {
  const headers = request.headers;
  const host = headers.get("host");
  if (host !== lastValidHost) {
    if (host === null || !HOST.test(host)) {
      return new Response(JSON.stringify({ detail: "Invalid Host header" }), BAD_HOST);
    }
    lastValidHost = host;
  }
  const given = headers.get("x-request-id");
  return given !== null && ACCEPTED_ID.test(given) ? given : `${PREFIX}-${++counter}`;
}

// Headers are set on a made answer: on Bun that costs less than giving them to `new Response`.
function hello(request: Request): Response {
  const id = KEEPS_CONTRACT ? contract(request) : "";
  if (typeof id !== "string") return id;
  const answer = new Response("Hello, World!");
  if (KEEPS_CONTRACT) answer.headers.set("x-request-id", id);
  return answer;
}

const JSON_TYPE = "application/json; charset=utf-8";
const EMPTY_PAGE = JSON.stringify({ code: 0, message: "success", data: [] });
// A page and size of plain digits in range, the query a client usually sends: read without
// URLSearchParams. Anything else is the raw server's reading (listIssues), which names each issue.
const PLAIN_PAIR = /^(page|size)=([1-9]\d{0,2})$/;

function plainListQuery(query: string): boolean {
  if (query === "") return true;
  for (const pair of query.split("&")) {
    const match = PLAIN_PAIR.exec(pair);
    if (match === null || (match[1] === "size" && Number(match[2]) > 100)) return false;
  }
  return true;
}

function studentList(request: Request): Response {
  const id = KEEPS_CONTRACT ? contract(request) : "";
  if (typeof id !== "string") return id;
  const url = request.url;
  const q = url.indexOf("?", url.indexOf("/", url.indexOf("//") + 2));
  if (!plainListQuery(q === -1 ? "" : url.slice(q + 1))) {
    const issues = listIssues(url, q);
    if (issues.length > 0) {
      return new Response(JSON.stringify({ detail: issues }), {
        status: 422,
        headers: { "content-type": JSON_TYPE, "x-request-id": id },
      });
    }
  }
  const answer = new Response(EMPTY_PAGE);
  answer.headers.set("content-type", JSON_TYPE);
  if (KEEPS_CONTRACT) answer.headers.set("x-request-id", id);
  return answer;
}

/** The raw server's answer for the path, with the request's id. */
function withId(request: Request): Response | Promise<Response> {
  if (!KEEPS_CONTRACT) return rawFetch(request);
  const id = contract(request);
  if (typeof id !== "string") return id;
  const answer = rawFetch(request);
  if (answer instanceof Response) {
    answer.headers.set("x-request-id", id);
    return answer;
  }
  return answer.then((ready) => {
    ready.headers.set("x-request-id", id);
    return ready;
  });
}

const routes: Record<string, Record<string, Handler>> = {
  "/hello": { GET: hello },
  "/api/enroll/student-list": { GET: studentList },
  "/api/enroll/secure-list": { GET: withId },
  "/api/enroll/students": { GET: withId },
  "/api/enroll/bind": { POST: withId },
};

const { Bun } = globalThis as { Bun?: BunServe };
if (Bun === undefined)
  throw new Error("bench/servers/web/raw-contract.ts runs on Bun: npm run bench -- --runtime bun");
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: "127.0.0.1",
  development: false,
  routes,
  fetch: withId,
});
console.log(`listening ${server.port}`);
