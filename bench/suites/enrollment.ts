// `npm run bench:enrollment`: the enrollment service's database-backed student-list and bind on
// SQLite, served by the app itself (unruffled) and by twins in Fastify and bare node:http that call
// the same service functions (bench/servers/enrollment/). Every server starts on a fresh database
// seeded with the same rows (data.ts), so every start, and every round, serves the same data.
import type { PairBody } from "../load.ts";
import { COURSES, STUDENTS, student } from "../servers/enrollment/data.ts";
import { type Check, notAboveLine, rpsLine, type Suite } from "./suite.ts";

const LIST = "/api/enroll/student-list";
const BIND = "/api/enroll/bind";

/** In every success envelope, in no refusal: checked in every answer under load. */
const SUCCESS = '"code":0,';

/**
 * The load binds a new pair at every request (PairBody in load.ts: warm-up and measured run never
 * send the same pair), over every student and every course but the last. The last course is left to
 * the checks, which run on the same fresh database just before the load: their binds can never make
 * one of the load's a repeat (a 409, cheaper than an insert).
 */
const CHECK_COURSE = COURSES;

/**
 * The course changes at every request and the student every 999: bind counts the course's
 * enrolments each time, and that count then grows slowly and evenly instead of climbing to 2,000
 * and falling back, so every bind costs about the same.
 */
const BIND_PAIRS: PairBody = {
  fields: ["course_id", "student_id"],
  counts: [CHECK_COURSE - 1, STUDENTS],
  start: 0,
};

function studentPage(first: number, last: number) {
  const data = [];
  for (let id = first; id <= last; id++) data.push({ id, ...student(id) });
  return { code: 0, message: "success", data };
}

const bindBody = (studentId: number, courseId: number) =>
  JSON.stringify({ student_id: studentId, course_id: courseId });

const checks: Check[] = [
  { name: "list", method: "GET", path: `${LIST}?page=1&size=10`, status: 200, json: studentPage(1, 10) },
  { name: "list, defaults", method: "GET", path: LIST, status: 200, json: studentPage(1, 10) },
  {
    name: "list, last page",
    method: "GET",
    path: `${LIST}?page=${STUDENTS / 10}&size=10`,
    status: 200,
    json: studentPage(STUDENTS - 9, STUDENTS),
  },
  { name: "list, page=0", method: "GET", path: `${LIST}?page=0`, status: 200, envelopeCode: 422 },
  { name: "list, size=101", method: "GET", path: `${LIST}?size=101`, status: 200, envelopeCode: 422 },
  { name: "list, page=abc", method: "GET", path: `${LIST}?page=abc`, status: 200, envelopeCode: 422 },
  {
    name: "bind",
    method: "POST",
    path: BIND,
    body: bindBody(1, CHECK_COURSE),
    status: 200,
    json: {
      code: 0,
      message: `Student 1 enrolled in course ${CHECK_COURSE}`,
      data: { student_id: 1, course_id: CHECK_COURSE },
    },
  },
  {
    name: "bind, same pair again",
    method: "POST",
    path: BIND,
    body: bindBody(1, CHECK_COURSE),
    status: 200,
    envelopeCode: 409,
  },
  {
    name: "bind, unknown student",
    method: "POST",
    path: BIND,
    body: bindBody(999_999, CHECK_COURSE),
    status: 200,
    envelopeCode: 404,
  },
  {
    name: "bind, student_id=0",
    method: "POST",
    path: BIND,
    body: bindBody(0, CHECK_COURSE),
    status: 200,
    envelopeCode: 422,
  },
  {
    name: "bind, course_id missing",
    method: "POST",
    path: BIND,
    body: '{"student_id":1}',
    status: 200,
    envelopeCode: 422,
  },
  {
    name: "bind, malformed JSON",
    method: "POST",
    path: BIND,
    body: '{"student_id":1,',
    status: 200,
    envelopeCode: 400,
  },
];

export const enrollment: Suite = {
  id: "enrollment",
  title: "the enrollment service's student-list and bind on SQLite, by three servers",
  servers: [
    { id: "raw", label: "node:http (raw)", file: "servers/enrollment/raw.ts" },
    { id: "fastify", label: "Fastify 5", file: "servers/enrollment/fastify.ts" },
    { id: "unruffled", label: "unruffled", file: "servers/enrollment/unruffled.ts" },
  ],
  endpoints: [
    {
      id: "list",
      label: `GET ${LIST}?page=1&size=10`,
      method: "GET",
      path: `${LIST}?page=1&size=10`,
      bodyIncludes: SUCCESS,
      validated: true,
    },
    {
      id: "bind",
      label: `POST ${BIND} (a new pair at every request)`,
      method: "POST",
      path: BIND,
      pairBody: BIND_PAIRS,
      bodyIncludes: SUCCESS,
      validated: true,
    },
  ],
  checks,
  readyPath: `${LIST}?size=1`,
  targets(summary) {
    const uf = summary.unruffled;
    return enrollment.endpoints.flatMap((endpoint) => {
      const u = uf?.endpoints[endpoint.id];
      // Not loaded in this run (--endpoints).
      if (u === undefined) return [];
      const peer = (id: string) => summary[id]?.endpoints[endpoint.id];
      return [
        rpsLine(`${endpoint.id}: req/s vs Fastify`, summary, endpoint.id, "fastify", 1),
        rpsLine(`${endpoint.id}: req/s vs raw node:http`, summary, endpoint.id, "raw", 0.85),
        notAboveLine(`${endpoint.id}: p99 ≤ Fastify`, u?.p99Ms, peer("fastify")?.p99Ms, "ms"),
      ];
    });
  },
};
