// serve(app) on Bun hands the app's fixed paths to Bun.serve's own routes (server/bun/bun-routes.ts):
// every request must get, byte for byte, the answer the generic fetch path gives it.
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { endProcessGroups } from "process-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeCommand, type ServedApp, startOn } from "../../runtimes/runtime-process.ts";

const fixture = fileURLToPath(new URL("./fixed-routes-app.ts", import.meta.url));

afterAll(endProcessGroups);

/** Sends one request as written and resolves with the whole answer as sent, minus its Date line. */
function exchange(port: number, head: string, body = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      // Not end(): a client that half-closes may not be answered at all (Bun drops it).
      socket.write(`${head}\r\nHost: x\r\nConnection: close\r\n\r\n${body}`);
    });
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    socket.once("error", reject);
    socket.once("close", () => resolve(answer.replace(/^date: .*\r\n/gim, "")));
  });
}

const ID = "X-Request-Id: fixed-1";
const json = (method: string, target: string, text: string, type = "application/json") =>
  [
    `${method} ${target} HTTP/1.1\r\n${ID}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(text)}`,
    text,
  ] as const;

// Requests Bun routes itself, and those it leaves to fetch (HEAD, OPTIONS, 404, 405, trailing slash).
const REQUESTS: Record<string, readonly [string, string?]> = {
  "a fixed path": [`GET /hello HTTP/1.1\r\n${ID}`],
  "a fixed path with a query string": [`GET /hello?x=1 HTTP/1.1\r\n${ID}`],
  "HEAD of a GET route": [`HEAD /hello HTTP/1.1\r\n${ID}`],
  "a method the path does not answer (405 and Allow)": [`DELETE /hello HTTP/1.1\r\n${ID}`],
  OPTIONS: [`OPTIONS /hello HTTP/1.1\r\n${ID}`],
  "a trailing slash (404)": [`GET /hello/ HTTP/1.1\r\n${ID}`],
  "a percent-encoded path (404)": [`GET /hell%6F HTTP/1.1\r\n${ID}`],
  "an unknown path (404)": [`GET /nowhere HTTP/1.1\r\n${ID}`],
  "valid query parameters": [`GET /list?page=2&size=5 HTTP/1.1\r\n${ID}`],
  "invalid query parameters (422)": [`GET /list?page=0&size=x HTTP/1.1\r\n${ID}`],
  "a valid JSON body": json("POST", "/bind", '{"student_id":1,"course_id":2}'),
  "a second method of the same route": json("PUT", "/bind", '{"student_id":3,"course_id":4}'),
  "an invalid JSON body (422)": json("POST", "/bind", '{"student_id":0}'),
  "malformed JSON (400)": json("POST", "/bind", '{"student_id":'),
  "a body over the limit (413)": json(
    "POST",
    "/bind",
    JSON.stringify({ student_id: 1, pad: "x".repeat(80) }),
  ),
  "a body of another media type (415)": json("POST", "/bind", "student_id=1", "text/plain"),
  "a JSON body with a charset": json(
    "POST",
    "/bind",
    '{"student_id":5,"course_id":6}',
    "application/json; charset=utf-8",
  ),
  "a body of a +json media type": json(
    "POST",
    "/bind",
    '{"student_id":7,"course_id":8}',
    "application/x+json",
  ),
  "a JSON body without a content type": [
    `POST /bind HTTP/1.1\r\n${ID}\r\nContent-Length: 30`,
    '{"student_id":1,"course_id":9}',
  ],
  "an empty JSON body (422)": json("POST", "/bind", ""),
  "a chunked JSON body": [
    `POST /bind HTTP/1.1\r\n${ID}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked`,
    '1e\r\n{"student_id":2,"course_id":3}\r\n0\r\n\r\n',
  ],
  "a JSON body with a content coding (415)": [
    `POST /bind HTTP/1.1\r\n${ID}\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 30`,
    '{"student_id":1,"course_id":9}',
  ],
  "a JSON body read again by an async handler": json("POST", "/reread", '{"name":"Zoë"}'),
  "a JSON body of the wrong shape, async handler (422)": json("POST", "/reread", "[1]"),
  "a malformed JSON body, async handler (400)": json("POST", "/reread", "{"),
  "the target, query and headers read in the handler": [
    `GET /echo?a=1&a=2&b=%20c HTTP/1.1\r\n${ID}\r\nUser-Agent: probe\r\nX-Custom: yes`,
  ],
  "a path with placeholders": [`GET /items/7 HTTP/1.1\r\n${ID}`],
  "a handler that throws (500)": [`GET /boom HTTP/1.1\r\n${ID}`],
  "an answer that comes later": [`GET /later HTTP/1.1\r\n${ID}`],
  "a route with middleware (CORS)": [`GET /cors HTTP/1.1\r\n${ID}\r\nOrigin: https://app.example.com`],
  "a rate-limited route": [`GET /limited HTTP/1.1\r\n${ID}`],
};

describe("serve(app) on Bun", () => {
  let served: ServedApp;
  let routed: number;
  let generic: number;

  beforeAll(async () => {
    served = await startOn("bun", runtimeCommand("bun", fixture, []), {}, /listening (\d+ \d+)/);
    const ports = /listening (\d+) (\d+)/.exec(served.output.combined)!;
    routed = Number(ports[1]);
    generic = Number(ports[2]);
  });

  it.each(Object.entries(REQUESTS))("answers %s as the generic path does", async (_name, [head, body]) => {
    const fromRoutes = await exchange(routed, head, body);
    const fromFetch = await exchange(generic, head, body);
    expect(fromRoutes).toBe(fromFetch);
    expect(fromRoutes).toMatch(/^HTTP\/1\.1 \d{3} /);
  });

  it("does not read ahead a JSON body with a content coding: its route answers 415", async () => {
    const [head, body] = REQUESTS["a JSON body with a content coding (415)"]!;
    expect(await exchange(routed, head, body)).toMatch(/^HTTP\/1\.1 415 /);
  });

  it("gives a request without an id one of its own, as the generic path does", async () => {
    const fromRoutes = await exchange(routed, "GET /hello HTTP/1.1");
    const fromFetch = await exchange(generic, "GET /hello HTTP/1.1");
    const id = /^x-request-id: (.*)\r\n/im;
    expect(fromRoutes.match(id)?.[1]).toMatch(/^[\w-]+-\d+$/);
    expect(fromRoutes.replace(id, "")).toBe(fromFetch.replace(id, ""));
  });
});
