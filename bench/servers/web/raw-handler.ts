// The hand-written fetch handler of the runtime's raw server (raw.ts), with the rules of ../raw.ts;
// also measured in process beside unruffled's (bench/fetch-overhead.ts).
import { DECLARED_ROWS } from "../student-rows.ts";

type Issue = { loc: (string | number)[]; msg: string };

const TEXT = { "content-type": "text/plain; charset=utf-8" };
const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };
const json = (status: number, value: unknown) =>
  new Response(JSON.stringify(value), { status, headers: JSON_TYPE });

function intParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
  issues: Issue[],
) {
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
  if (value <= 0) issues.push({ loc: ["body", name], msg: "Input should be greater than 0" });
  return value;
}

/** The list's query read and checked: its issues, none when valid. `q` is where its `?` is, or -1. */
export function listIssues(url: string, q: number): Issue[] {
  const query = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
  const issues: Issue[] = [];
  intParam(query, "page", 1, 1, Number.MAX_SAFE_INTEGER, issues);
  intParam(query, "size", 10, 1, 100, issues);
  return issues;
}

function studentList(url: string, q: number): Response {
  const issues = listIssues(url, q);
  return issues.length > 0
    ? json(422, { detail: issues })
    : json(200, { code: 0, message: "success", data: [] });
}

async function bind(request: Request): Promise<Response> {
  if (!/^application\/json\s*(;|$)/i.test(request.headers.get("content-type") ?? "")) {
    return json(415, { detail: "Content-Type must be application/json" });
  }
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return json(400, { detail: "Malformed JSON in request body" });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return json(422, { detail: [{ loc: ["body"], msg: "Input should be an object" }] });
  }
  const issues: Issue[] = [];
  const studentId = positiveInt(body as Record<string, unknown>, "student_id", issues);
  const courseId = positiveInt(body as Record<string, unknown>, "course_id", issues);
  if (issues.length > 0) return json(422, { detail: issues });
  return json(200, {
    code: 0,
    message: `Student ${studentId} bound to course ${courseId}`,
    data: { student_id: studentId, course_id: courseId },
  });
}

export function rawFetch(request: Request): Response | Promise<Response> {
  const url = request.url;
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  const q = url.indexOf("?", pathStart);
  const pathname = q === -1 ? url.slice(pathStart) : url.slice(pathStart, q);
  const method = request.method;
  switch (pathname) {
    case "/hello":
      if (method !== "GET" && method !== "HEAD") break;
      return new Response("Hello, World!", { headers: TEXT });
    case "/api/enroll/student-list":
      if (method !== "GET" && method !== "HEAD") break;
      return studentList(url, q);
    case "/api/enroll/bind":
      if (method !== "POST") break;
      return bind(request);
    case "/api/enroll/secure-list":
      if (method !== "GET" && method !== "HEAD") break;
      if (request.headers.get("authorization") !== "Bearer bench-token") {
        return new Response(JSON.stringify({ detail: "Not authenticated" }), {
          status: 401,
          headers: { ...JSON_TYPE, "www-authenticate": "Bearer" },
        });
      }
      return studentList(url, q);
    case "/api/enroll/students":
      if (method !== "GET" && method !== "HEAD") break;
      return json(200, { code: 0, message: "success", data: DECLARED_ROWS });
    default:
      return json(404, { detail: "Not Found" });
  }
  return json(405, { detail: "Method Not Allowed" });
}
