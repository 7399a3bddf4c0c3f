// Raw node:http with hand-written validation: the ceiling the frameworks are measured against.
// Same rules as every other implementation:
//   GET  /hello                      -> text/plain "Hello, World!"
//   GET  /api/enroll/student-list    -> page int >= 1 (default 1), size int 1..100 (default 10); 422 otherwise
//   POST /api/enroll/bind            -> JSON {student_id, course_id}, both ints > 0; 422 otherwise, 400 on bad JSON
//   GET  /api/enroll/secure-list     -> Authorization: Bearer bench-token (401 otherwise), then as student-list
//   GET  /api/enroll/students        -> 100 fixed rows, as declared (no password hash)
//   GET  /limited/hello              -> /hello behind 10⁹ requests an hour per client address, counted
//                                       in memory (GCRA), with RateLimit-Policy and RateLimit; 429 past it
import http from "node:http";
import { DECLARED_ROWS } from "./student-rows.ts";

type Issue = { loc: (string | number)[]; msg: string };

const MAX_BODY = 1024 * 1024;

function send(res: http.ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, {
    "content-type": contentType,
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value));
}

/** Decimal integer from a query value, with a default and bounds (the same rule as Zod's coerce + int). */
function intParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
  issues: Issue[],
): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isInteger(value)) {
    issues.push({ loc: ["query", name], msg: "Input should be a valid integer" });
  } else if (value < min) {
    issues.push({ loc: ["query", name], msg: `Input should be greater than or equal to ${min}` });
  } else if (value > max) {
    issues.push({ loc: ["query", name], msg: `Input should be less than or equal to ${max}` });
  }
  return value;
}

function positiveInt(body: Record<string, unknown>, name: string, issues: Issue[]): number {
  const value = body[name];
  if (value === undefined) {
    issues.push({ loc: ["body", name], msg: "Field required" });
    return 0;
  }
  if (typeof value !== "number" || !Number.isInteger(value)) {
    issues.push({ loc: ["body", name], msg: "Input should be a valid integer" });
    return 0;
  }
  if (value <= 0) {
    issues.push({ loc: ["body", name], msg: "Input should be greater than 0" });
  }
  return value;
}

function studentList(res: http.ServerResponse, queryString: string): void {
  const query = new URLSearchParams(queryString);
  const issues: Issue[] = [];
  intParam(query, "page", 1, 1, Number.MAX_SAFE_INTEGER, issues);
  intParam(query, "size", 10, 1, 100, issues);
  if (issues.length > 0) sendJson(res, 422, { detail: issues });
  else sendJson(res, 200, { code: 0, message: "success", data: [] });
}

/** The bearer check of the secured list: the token, or a 401 naming the scheme. */
function authorized(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.headers.authorization === "Bearer bench-token") return true;
  res.writeHead(401, { "content-type": "application/json; charset=utf-8", "www-authenticate": "Bearer" });
  res.end(JSON.stringify({ detail: "Not authenticated" }));
  return false;
}

function bind(req: http.IncomingMessage, res: http.ServerResponse): void {
  const contentType = req.headers["content-type"] ?? "";
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    req.resume();
    sendJson(res, 415, { detail: "Content-Type must be application/json" });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY) tooLarge = true;
    else chunks.push(chunk);
  });
  req.on("end", () => {
    if (tooLarge) return sendJson(res, 413, { detail: "Request body too large" });
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks, size).toString("utf8"));
    } catch {
      return sendJson(res, 400, { detail: "Malformed JSON in request body" });
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return sendJson(res, 422, { detail: [{ loc: ["body"], msg: "Input should be an object" }] });
    }
    const issues: Issue[] = [];
    const record = body as Record<string, unknown>;
    const studentId = positiveInt(record, "student_id", issues);
    const courseId = positiveInt(record, "course_id", issues);
    if (issues.length > 0) return sendJson(res, 422, { detail: issues });
    sendJson(res, 200, {
      code: 0,
      message: `Student ${studentId} bound to course ${courseId}`,
      data: { student_id: studentId, course_id: courseId },
    });
  });
}

// The rate limit written by hand, as unruffled's memory store counts it (GCRA in microseconds, a
// client address's time in a Map), with the draft's two header lines: what the feature costs on
// bare node:http, for the limited route's reference line.
const LIMIT = 1_000_000_000;
const WINDOW_S = 3600;
const INTERVAL_US = Math.ceil((WINDOW_S * 1_000_000) / LIMIT);
const CAPACITY_US = INTERVAL_US * LIMIT;
const POLICY = `"bench";q=${LIMIT};w=${WINDOW_S}`;
const arrivals = new Map<string, number>();

function limitedHello(req: http.IncomingMessage, res: http.ServerResponse): void {
  const key = req.socket.remoteAddress ?? "";
  const now = Date.now() * 1000;
  const start = Math.max(arrivals.get(key) ?? now, now);
  const next = start + INTERVAL_US;
  if (next - now > CAPACITY_US) {
    res.writeHead(429, {
      "content-type": "application/json; charset=utf-8",
      "ratelimit-policy": POLICY,
      ratelimit: `"bench";r=0;t=${Math.ceil((start - now) / 1_000_000)}`,
      "retry-after": String(Math.ceil((next - CAPACITY_US - now) / 1_000_000)),
    });
    res.end('{"detail":"Too Many Requests"}');
    return;
  }
  arrivals.set(key, next);
  const remaining = Math.floor((CAPACITY_US - (next - now)) / INTERVAL_US);
  res.writeHead(200, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": 13,
    "ratelimit-policy": POLICY,
    ratelimit: `"bench";r=${remaining};t=${Math.ceil((next - now) / 1_000_000)}`,
  });
  res.end("Hello, World!");
}

const server = http.createServer((req, res) => {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const pathname = q === -1 ? url : url.slice(0, q);
  const method = req.method ?? "GET";
  switch (pathname) {
    case "/hello":
      if (method !== "GET" && method !== "HEAD") break;
      return send(res, 200, "text/plain; charset=utf-8", "Hello, World!");
    case "/api/enroll/student-list":
      if (method !== "GET" && method !== "HEAD") break;
      return studentList(res, q === -1 ? "" : url.slice(q + 1));
    case "/api/enroll/bind":
      if (method !== "POST") break;
      return bind(req, res);
    case "/api/enroll/secure-list":
      if (method !== "GET" && method !== "HEAD") break;
      if (authorized(req, res)) studentList(res, q === -1 ? "" : url.slice(q + 1));
      return;
    case "/limited/hello":
      if (method !== "GET" && method !== "HEAD") break;
      return limitedHello(req, res);
    case "/api/enroll/students":
      if (method !== "GET" && method !== "HEAD") break;
      // The ceiling: rows already as declared, written with JSON.stringify.
      return sendJson(res, 200, { code: 0, message: "success", data: DECLARED_ROWS });
    default:
      return sendJson(res, 404, { detail: "Not Found" });
  }
  sendJson(res, 405, { detail: "Method Not Allowed" });
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  console.log(`listening ${port}`);
});
