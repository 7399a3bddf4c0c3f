import { EventStreamResponse, JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p } from "unruffled/route";
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
    "Server-sent events: the course's seats now, then after every bind and unbind, until the client leaves. An unknown course is the usual 404 envelope.",
  params: { course_id: p.Query(BindRequest.shape.course_id), db: p.Depends(database) },
  returns: [
    p.ResponseSpec({
      model: CourseSeats,
      content_type: "text/event-stream",
      description: "The course's seats",
    }),
  ],
  async handler(request, { course_id, db }) {
    // An unknown course is answered before the stream starts, in the usual envelope.
    await services.courseSeats(db, course_id);
    async function* events() {
      for await (const seats of services.followSeats(db, course_id, request.signal)) {
        yield { data: seats };
      }
    }
    return new EventStreamResponse(events());
  },
});
