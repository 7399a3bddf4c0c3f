// `npm run bench`: the same in-memory endpoints served by five implementations (and Fastify twice)
// (bench/servers/*.ts), so what differs is the framework alone.
import { DECLARED_ROWS } from "../servers/student-rows.ts";
import {
  appliesTo,
  baselineLine,
  baselineReference,
  type Check,
  notAboveLine,
  rpsLine,
  type Suite,
} from "./suite.ts";

const LIST = "/api/enroll/student-list";
// The list under CORS and compression (unruffled's cors() and compression(), @fastify/cors and
// @fastify/compress), as a browser page on an allowed origin asks for it.
const WRAPPED_LIST = `/mw${LIST}`;
const PAGE_ORIGIN = "https://app.example.com";
const BROWSER_HEADERS = { origin: PAGE_ORIGIN, "accept-encoding": "gzip, deflate, br" };
const WITH_MIDDLEWARE = ["fastify", "unruffled"];
// GET /hello behind a rate limit (memory store): unruffled's own feature, judged against its /hello;
// raw node:http serves it too, counted by hand with the same two header lines, for reference.
const LIMITED = "/limited/hello";
const LIMITED_SERVERS = ["raw", "unruffled"];
const BIND = "/api/enroll/bind";
const SECURE = "/api/enroll/secure-list";
const TOKEN = { authorization: "Bearer bench-token" };
// The secured list: every server but the minimal Fastify, which has the measured routes only.
const WITH_SECURE = ["raw", "fastify", "hono", "express", "unruffled"];
const LIST_OK = { code: 0, message: "success", data: [] };
const STUDENTS = "/api/enroll/students";
// Exactly the declared rows: a server that sends the handler's password hashes fails the check.
const STUDENTS_OK = { code: 0, message: "success", data: DECLARED_ROWS };
const BIND_OK = {
  code: 0,
  message: "Student 1 bound to course 2",
  data: { student_id: 1, course_id: 2 },
};

const checks: Check[] = [
  { name: "hello", method: "GET", path: "/hello", status: 200, text: "Hello, World!" },
  {
    name: "hello, rate-limited",
    method: "GET",
    path: LIMITED,
    status: 200,
    text: "Hello, World!",
    responseHeaders: { "ratelimit-policy": '"bench";q=1000000000;w=3600' },
    servers: LIMITED_SERVERS,
  },
  { name: "list", method: "GET", path: `${LIST}?page=1&size=10`, status: 200, json: LIST_OK },
  { name: "list, defaults", method: "GET", path: LIST, status: 200, json: LIST_OK },
  { name: "list, bounds", method: "GET", path: `${LIST}?page=7&size=100`, status: 200, json: LIST_OK },
  { name: "list, page=0", method: "GET", path: `${LIST}?page=0`, status: 422 },
  { name: "list, page=-1", method: "GET", path: `${LIST}?page=-1&size=10`, status: 422 },
  { name: "list, page=abc", method: "GET", path: `${LIST}?page=abc`, status: 422 },
  { name: "list, size=0", method: "GET", path: `${LIST}?size=0`, status: 422 },
  { name: "list, size=101", method: "GET", path: `${LIST}?page=1&size=101`, status: 422 },
  { name: "list, size=2.5", method: "GET", path: `${LIST}?size=2.5`, status: 422 },
  {
    name: "bind",
    method: "POST",
    path: BIND,
    body: '{"student_id":1,"course_id":2}',
    status: 200,
    json: BIND_OK,
  },
  {
    name: "bind, student_id=0",
    method: "POST",
    path: BIND,
    body: '{"student_id":0,"course_id":2}',
    status: 422,
  },
  {
    name: "bind, course_id=-5",
    method: "POST",
    path: BIND,
    body: '{"student_id":1,"course_id":-5}',
    status: 422,
  },
  { name: "bind, course_id missing", method: "POST", path: BIND, body: '{"student_id":1}', status: 422 },
  { name: "bind, empty object", method: "POST", path: BIND, body: "{}", status: 422 },
  {
    name: 'bind, student_id="x"',
    method: "POST",
    path: BIND,
    body: '{"student_id":"x","course_id":2}',
    status: 422,
  },
  {
    name: "bind, course_id=1.5",
    method: "POST",
    path: BIND,
    body: '{"student_id":1,"course_id":1.5}',
    status: 422,
  },
  { name: "bind, array body", method: "POST", path: BIND, body: "[1,2]", status: 422 },
  { name: "bind, malformed JSON", method: "POST", path: BIND, body: '{"student_id":1,', status: 400 },
  {
    name: "secure list",
    method: "GET",
    path: `${SECURE}?page=1&size=10`,
    headers: TOKEN,
    status: 200,
    json: LIST_OK,
    servers: WITH_SECURE,
  },
  {
    name: "secure list, no token",
    method: "GET",
    path: `${SECURE}?page=1&size=10`,
    status: 401,
    servers: WITH_SECURE,
  },
  {
    name: "secure list, wrong token",
    method: "GET",
    path: `${SECURE}?page=1&size=10`,
    headers: { authorization: "Bearer guess" },
    status: 401,
    servers: WITH_SECURE,
  },
  {
    name: "secure list, size=101",
    method: "GET",
    path: `${SECURE}?size=101`,
    headers: TOKEN,
    status: 422,
    servers: WITH_SECURE,
  },
  {
    name: "list with middleware, allowed origin",
    method: "GET",
    path: `${WRAPPED_LIST}?page=1&size=10`,
    headers: BROWSER_HEADERS,
    status: 200,
    json: LIST_OK,
    responseHeaders: { "access-control-allow-origin": PAGE_ORIGIN },
    servers: WITH_MIDDLEWARE,
  },
  {
    name: "list with middleware, preflight",
    method: "OPTIONS",
    path: WRAPPED_LIST,
    headers: { origin: PAGE_ORIGIN, "access-control-request-method": "GET" },
    status: 204,
    responseHeaders: { "access-control-allow-origin": PAGE_ORIGIN },
    servers: WITH_MIDDLEWARE,
  },
  {
    name: "list with middleware, page=0",
    method: "GET",
    path: `${WRAPPED_LIST}?page=0`,
    headers: BROWSER_HEADERS,
    status: 422,
    servers: WITH_MIDDLEWARE,
  },
  {
    name: "compression on (a long text, gzip)",
    method: "GET",
    path: "/mw/hello-long",
    headers: { origin: PAGE_ORIGIN, "accept-encoding": "gzip" },
    status: 200,
    text: "Hello, World! ".repeat(100),
    responseHeaders: { "content-encoding": "gzip" },
    servers: WITH_MIDDLEWARE,
  },
  {
    name: "students, 100 rows without their password hashes",
    method: "GET",
    path: STUDENTS,
    status: 200,
    json: STUDENTS_OK,
  },
];

// The req/s targets against Fastify and raw node:http. The three plain endpoints (issue 30): at
// least Fastify, and near raw; the validated POST a little further from it. The list of 100 rows
// filtered through its model has its own (issue 18): near raw sending the declared rows, well ahead
// of Fastify's schema. The secure list keeps the default.
const FACTORS: Record<string, { fastify: number; raw: number }> = {
  hello: { fastify: 1, raw: 0.95 },
  list: { fastify: 1, raw: 0.95 },
  bind: { fastify: 1, raw: 0.92 },
  students: { fastify: 1.3, raw: 0.95 },
};
const DEFAULT_FACTORS = { fastify: 1, raw: 0.85 };

export const frameworks: Suite = {
  id: "frameworks",
  title: "the same in-memory endpoints served by five implementations",
  servers: [
    { id: "raw", label: "node:http (raw)", file: "servers/raw.ts" },
    { id: "fastify", label: "Fastify 5", file: "servers/fastify.ts" },
    // Issue 40: the same Fastify with the measured routes only. Today's fastify.ts also registers a
    // CORS-and-compression scope and the secured list, and those slow its other routes.
    {
      id: "fastify-minimal",
      label: "Fastify 5, the measured routes only",
      file: "servers/fastify-minimal.ts",
    },
    { id: "hono", label: "Hono 4 + Zod", file: "servers/hono.ts" },
    { id: "express", label: "Express 5 + Zod", file: "servers/express.ts" },
    { id: "unruffled", label: "unruffled", file: "servers/unruffled.ts" },
  ],
  endpoints: [
    { id: "hello", label: "GET /hello", method: "GET", path: "/hello", validated: false },
    {
      // Issue 39: a limit counted in memory costs a route at most 3 %.
      id: "limited",
      label: "GET /limited/hello (the hello behind a rate limit, memory store)",
      method: "GET",
      path: LIMITED,
      servers: LIMITED_SERVERS,
      baseline: "hello",
      validated: false,
    },
    {
      id: "list",
      label: "GET /api/enroll/student-list?page=1&size=10",
      method: "GET",
      path: "/api/enroll/student-list?page=1&size=10",
      validated: true,
    },
    {
      id: "bind",
      label: "POST /api/enroll/bind",
      method: "POST",
      path: "/api/enroll/bind",
      body: JSON.stringify({ student_id: 1, course_id: 2 }),
      validated: true,
    },
    {
      // The realistic route: the validated list behind a bearer check (unruffled: a paging
      // dependency and a security scheme; Fastify: an onRequest hook and its schema).
      id: "secure",
      label: "GET /api/enroll/secure-list?page=1&size=10 (bearer)",
      method: "GET",
      path: `${SECURE}?page=1&size=10`,
      headers: TOKEN,
      servers: WITH_SECURE,
      baseline: "list",
      validated: true,
    },
    {
      id: "list-mw",
      label: `GET ${WRAPPED_LIST}?page=1&size=10 with CORS and compression, from a page's origin`,
      method: "GET",
      path: `${WRAPPED_LIST}?page=1&size=10`,
      headers: BROWSER_HEADERS,
      servers: WITH_MIDDLEWARE,
      validated: true,
    },
    {
      id: "students",
      label: "GET /api/enroll/students (100 rows through the model)",
      method: "GET",
      path: STUDENTS,
      validated: false,
    },
  ],
  checks,
  readyPath: "/hello",
  targets(summary) {
    const uf = summary.unruffled;
    const lines: string[] = [];
    for (const endpoint of frameworks.endpoints) {
      const u = uf?.endpoints[endpoint.id];
      // Not loaded in this run (--endpoints).
      if (u === undefined) continue;
      const name = endpoint.id;
      const peer = (id: string) => summary[id]?.endpoints[name];
      const factors = FACTORS[name] ?? DEFAULT_FACTORS;
      if (name === "limited") {
        lines.push(baselineLine(`${name}: req/s vs its ${endpoint.baseline} route`, summary, name, 0.97));
        lines.push(baselineReference(`${name} on raw node:http, by hand`, summary, name, "raw"));
        continue;
      }
      lines.push(rpsLine(`${name}: req/s vs Fastify`, summary, name, "fastify", factors.fastify));
      if (appliesTo(endpoint, "fastify-minimal")) {
        lines.push(
          rpsLine(
            `${name}: req/s vs Fastify, measured routes only`,
            summary,
            name,
            "fastify-minimal",
            factors.fastify,
          ),
        );
      }
      // The list with middleware is served by unruffled and Fastify only.
      if (name === "list-mw") {
        lines.push(notAboveLine(`${name}: p99 ≤ Fastify`, u?.p99Ms, peer("fastify")?.p99Ms, "ms"));
        continue;
      }
      lines.push(rpsLine(`${name}: req/s vs raw node:http`, summary, name, "raw", factors.raw));
      if (endpoint.validated) {
        lines.push(rpsLine(`${name}: req/s vs Hono + Zod`, summary, name, "hono", 1.5));
        lines.push(rpsLine(`${name}: req/s vs Express + Zod`, summary, name, "express", 2));
      }
      if (endpoint.baseline !== undefined) {
        lines.push(baselineLine(`${name}: req/s vs its ${endpoint.baseline} route`, summary, name, 0.95));
      }
      lines.push(notAboveLine(`${name}: p99 ≤ Fastify`, u?.p99Ms, peer("fastify")?.p99Ms, "ms"));
      lines.push(notAboveLine(`${name}: RSS ≤ Fastify`, u?.rssMB, peer("fastify")?.rssMB, "MB"));
    }
    lines.push(notAboveLine("peak RSS ≤ Fastify", uf?.peakRssMB, summary.fastify?.peakRssMB, "MB"));
    return lines;
  },
};
