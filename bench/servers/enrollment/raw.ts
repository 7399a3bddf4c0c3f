// The enrollment service's student-list and bind on bare node:http with hand-written checks: the
// ceiling. The same service functions and envelopes as apps/enrollment (every outcome is HTTP 200
// with { code, message, data }).
import http from "node:http";
import { BusinessError, bindCourse, listStudents } from "../../../apps/enrollment/src/services.ts";
import { seededDatabase } from "./seed.ts";

type Envelope = { code: number; message: string; data: unknown };
type Issue = { loc: string[]; msg: string };

// Ids are 32-bit integer columns on PostgreSQL: the app refuses larger ones (schemas.ts).
const MAX_ID = 2_147_483_647;
const MAX_BODY = 1024 * 1024;

const seeded = await seededDatabase();
const { database } = seeded;

const envelope = (code: number, message: string, data: unknown = null): Envelope => ({ code, message, data });
const invalid = (issues: Issue[]) => envelope(422, "Request validation failed", { errors: issues });

/** A decimal integer query parameter ≥ 1, with a default. */
function intParam(query: URLSearchParams, name: string, fallback: number, max: number, issues: Issue[]) {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isInteger(value)) {
    issues.push({ loc: ["query", name], msg: "Input should be a valid integer" });
  } else if (value < 1 || value > max) {
    issues.push({ loc: ["query", name], msg: `Input should be between 1 and ${max}` });
  }
  return value;
}

async function studentList(queryString: string): Promise<Envelope> {
  const query = new URLSearchParams(queryString);
  const issues: Issue[] = [];
  const page = intParam(query, "page", 1, Number.MAX_SAFE_INTEGER, issues);
  const size = intParam(query, "size", 10, 100, issues);
  const search = query.get("search") ?? undefined;
  if (search !== undefined && (search.length > 100 || search.includes("\u0000"))) {
    issues.push({ loc: ["query", "search"], msg: "At most 100 characters, no NUL" });
  }
  if (issues.length > 0) return invalid(issues);
  return envelope(0, "success", await listStudents(database, { page, size, search }));
}

/** The body's bytes, or null when it is larger than MAX_BODY. */
function readBody(req: http.IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks, size)));
    req.on("error", reject);
  });
}

function idField(body: Record<string, unknown>, name: string, issues: Issue[]): number {
  const value = body[name];
  if (value === undefined) {
    issues.push({ loc: ["body", name], msg: "Field required" });
  } else if (typeof value !== "number" || !Number.isInteger(value)) {
    issues.push({ loc: ["body", name], msg: "Input should be a valid integer" });
  } else if (value < 1 || value > MAX_ID) {
    issues.push({ loc: ["body", name], msg: `Input should be between 1 and ${MAX_ID}` });
  }
  return value as number;
}

async function bind(req: http.IncomingMessage): Promise<Envelope> {
  // a body that is not JSON is a malformed request, as in the app
  if (!/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) {
    req.resume();
    return envelope(400, "Expected a JSON body (application/json)");
  }
  const raw = await readBody(req);
  if (raw === null) return envelope(413, "Request body too large");
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return envelope(400, "Malformed JSON body");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return invalid([{ loc: ["body"], msg: "Input should be an object" }]);
  }
  const issues: Issue[] = [];
  const studentId = idField(body as Record<string, unknown>, "student_id", issues);
  const courseId = idField(body as Record<string, unknown>, "course_id", issues);
  if (issues.length > 0) return invalid(issues);
  const data = await bindCourse(database, studentId, courseId);
  return envelope(0, `Student ${data.student_id} enrolled in course ${data.course_id}`, data);
}

async function route(req: http.IncomingMessage): Promise<Envelope> {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const pathname = q === -1 ? url : url.slice(0, q);
  if (pathname === "/api/enroll/student-list" && req.method === "GET") {
    return studentList(q === -1 ? "" : url.slice(q + 1));
  }
  if (pathname === "/api/enroll/bind" && req.method === "POST") return bind(req);
  req.resume();
  return envelope(404, `No route ${req.method} ${pathname}`);
}

function send(res: http.ServerResponse, value: Envelope): void {
  const body = JSON.stringify(value);
  res.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

const server = http.createServer((req, res) => {
  route(req).then(
    (value) => send(res, value),
    (error: unknown) => {
      if (error instanceof BusinessError) return send(res, envelope(error.code, error.message));
      console.error(error);
      send(res, envelope(500, "Internal server error"));
    },
  );
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address !== null ? address.port : 0}`);
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.close(async () => {
      await seeded.discard();
      process.exit(0);
    });
  });
}
