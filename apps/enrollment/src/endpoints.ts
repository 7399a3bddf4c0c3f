import { EventStreamResponse, JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p } from "unruffled/route";
import { z } from "zod";
import { adminBearer, database, paging } from "./dependencies.ts";
import {
  BindRequest,
  BindResponse,
  CourseCreate,
  CourseListResponse,
  CourseResponse,
  CourseSeats,
  StudentCreate,
  StudentListResponse,
  StudentResponse,
  storableText,
} from "./schemas.ts";
import * as services from "./services.ts";

const listParams = {
  paging: p.Depends(paging),
  search: p.Query(storableText().max(100).optional(), {
    description: "Keep names that contain this, ignoring case",
  }),
  db: p.Depends(database),
};

export const hello = endpoint({
  summary: "Say hello",
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("Hello, World!"),
});

export const listStudents = endpoint({
  summary: "List students",
  description: "One page of students, ordered by id.",
  params: listParams,
  returns: [p.ResponseSpec({ model: StudentListResponse, description: "A page of students" })],
  async handler(_request, { paging, search, db }) {
    const data = await services.listStudents(db, { ...paging, search });
    return new JsonResponse({ code: 0, message: "success", data });
  },
});

export const listCourses = endpoint({
  summary: "List courses",
  description: "One page of courses, ordered by id.",
  params: listParams,
  returns: [p.ResponseSpec({ model: CourseListResponse, description: "A page of courses" })],
  async handler(_request, { paging, search, db }) {
    const data = await services.listCourses(db, { ...paging, search });
    return new JsonResponse({ code: 0, message: "success", data });
  },
});

export const bindCourse = endpoint({
  summary: "Enrol a student in a course",
  description:
    "Fails with 404 for an unknown student or course, 409 when already enrolled, 422 when the course is inactive or full.",
  params: { body: p.Json(BindRequest), db: p.Depends(database) },
  returns: [p.ResponseSpec({ model: BindResponse, description: "The student is enrolled" })],
  async handler(_request, { body, db }) {
    const data = await services.bindCourse(db, body.student_id, body.course_id);
    return new JsonResponse({
      code: 0,
      message: `Student ${data.student_id} enrolled in course ${data.course_id}`,
      data,
    });
  },
});

export const unbindCourse = endpoint({
  summary: "Withdraw a student from a course",
  description: "Fails with 404 for an unknown student or course, 409 when not enrolled.",
  params: { body: p.Json(BindRequest), db: p.Depends(database) },
  returns: [p.ResponseSpec({ model: BindResponse, description: "The student is withdrawn" })],
  async handler(_request, { body, db }) {
    const data = await services.unbindCourse(db, body.student_id, body.course_id);
    return new JsonResponse({
      code: 0,
      message: `Student ${data.student_id} withdrawn from course ${data.course_id}`,
      data,
    });
  },
});

export const createStudent = endpoint({
  summary: "Create a student",
  description:
    "Needs the admin bearer token (401 without it). Fails with 409 when the email or the student number is taken.",
  params: { admin: p.Security(adminBearer), body: p.Json(StudentCreate), db: p.Depends(database) },
  returns: [p.ResponseSpec({ model: StudentResponse, description: "The stored student" })],
  async handler(_request, { body, db }) {
    const data = await services.createStudent(db, body);
    return new JsonResponse({ code: 0, message: `Student ${data.id} created`, data });
  },
});

export const createCourse = endpoint({
  summary: "Create a course",
  description: "Needs the admin bearer token (401 without it). Fails with 409 when the course code is taken.",
  params: { admin: p.Security(adminBearer), body: p.Json(CourseCreate), db: p.Depends(database) },
  returns: [p.ResponseSpec({ model: CourseResponse, description: "The stored course" })],
  async handler(_request, { body, db }) {
    const data = await services.createCourse(db, body);
    return new JsonResponse({ code: 0, message: `Course ${data.id} created`, data });
  },
});

export const courseEvents = endpoint({
  summary: "Follow a course's seats",
  description:
    "Server-sent events: the course's seats now, then after binds and unbinds, until the client leaves. " +
    "Each event is the course's state (its seat count), not a change: changes that come together may be " +
    "told in one event. Each event has an id; a client that reconnects with Last-Event-ID gets the current " +
    "state at once, the ids going on from the one it sent. An unknown course is the usual 404 envelope.",
  params: {
    course_id: p.Query(BindRequest.shape.course_id),
    last_event_id: p.Header(z.string().optional(), {
      description: "The id of the last event seen, sent by an EventSource that reconnects",
    }),
    db: p.Depends(database),
  },
  returns: [
    p.ResponseSpec({
      model: CourseSeats,
      content_type: "text/event-stream",
      description: "The course's seats",
    }),
  ],
  async handler(request, { course_id, last_event_id, db }) {
    // An unknown course is answered before the stream starts, in the usual envelope.
    await services.courseSeats(db, course_id);
    let id = eventIdAfter(last_event_id);
    async function* events() {
      for await (const seats of services.followSeats(db, course_id, request.signal)) {
        id += 1;
        yield { data: seats, id: String(id) };
      }
    }
    return new EventStreamResponse(events());
  },
});

/** The id the stream goes on from: the client's Last-Event-ID when it is one of ours, else 0. */
function eventIdAfter(lastEventId: string | undefined): number {
  // Any other value (a stream of another server, a hand-written header) starts the ids over.
  return lastEventId !== undefined && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : 0;
}
