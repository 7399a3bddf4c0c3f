import { EventStreamResponse, JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p } from "unruffled/route";
import { z } from "zod";
import type { EnrollRequest } from "./request.ts";
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
  page: p.Query(z.int(), { default: 1, ge: 1, description: "Page number, from 1" }),
  size: p.Query(z.int(), { default: 10, ge: 1, le: 100, description: "Items per page" }),
  search: p.Query(storableText().max(100).optional(), {
    description: "Keep names that contain this, ignoring case",
  }),
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
  async handler(request: EnrollRequest, query) {
    const data = await services.listStudents(request.database, query);
    return new JsonResponse({ code: 0, message: "success", data });
  },
});

export const listCourses = endpoint({
  summary: "List courses",
  description: "One page of courses, ordered by id.",
  params: listParams,
  returns: [p.ResponseSpec({ model: CourseListResponse, description: "A page of courses" })],
  async handler(request: EnrollRequest, query) {
    const data = await services.listCourses(request.database, query);
    return new JsonResponse({ code: 0, message: "success", data });
  },
});

export const bindCourse = endpoint({
  summary: "Enrol a student in a course",
  description:
    "Fails with 404 for an unknown student or course, 409 when already enrolled, 422 when the course is inactive or full.",
  params: { body: p.Json(BindRequest) },
  returns: [p.ResponseSpec({ model: BindResponse, description: "The student is enrolled" })],
  async handler(request: EnrollRequest, { body }) {
    const data = await services.bindCourse(request.database, body.student_id, body.course_id);
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
  params: { body: p.Json(BindRequest) },
  returns: [p.ResponseSpec({ model: BindResponse, description: "The student is withdrawn" })],
  async handler(request: EnrollRequest, { body }) {
    const data = await services.unbindCourse(request.database, body.student_id, body.course_id);
    return new JsonResponse({
      code: 0,
      message: `Student ${data.student_id} withdrawn from course ${data.course_id}`,
      data,
    });
  },
});

export const createStudent = endpoint({
  summary: "Create a student",
  description: "Fails with 409 when the email or the student number is taken.",
  params: { body: p.Json(StudentCreate) },
  returns: [p.ResponseSpec({ model: StudentResponse, description: "The stored student" })],
  async handler(request: EnrollRequest, { body }) {
    const data = await services.createStudent(request.database, body);
    return new JsonResponse({ code: 0, message: `Student ${data.id} created`, data });
  },
});

export const createCourse = endpoint({
  summary: "Create a course",
  description: "Fails with 409 when the course code is taken.",
  params: { body: p.Json(CourseCreate) },
  returns: [p.ResponseSpec({ model: CourseResponse, description: "The stored course" })],
  async handler(request: EnrollRequest, { body }) {
    const data = await services.createCourse(request.database, body);
    return new JsonResponse({ code: 0, message: `Course ${data.id} created`, data });
  },
});

export const courseEvents = endpoint({
  summary: "Follow a course's seats",
  description:
    "Server-sent events: the course's seats now, then after every bind and unbind, until the client leaves. An unknown course is the usual 404 envelope.",
  params: { course_id: p.Query(BindRequest.shape.course_id) },
  returns: [
    p.ResponseSpec({
      model: CourseSeats,
      content_type: "text/event-stream",
      description: "The course's seats",
    }),
  ],
  async handler(request: EnrollRequest, { course_id }) {
    // An unknown course is answered before the stream starts, in the usual envelope.
    await services.courseSeats(request.database, course_id);
    async function* events() {
      for await (const seats of services.followSeats(request.database, course_id, request.signal)) {
        yield { data: seats };
      }
    }
    return new EventStreamResponse(events());
  },
});
