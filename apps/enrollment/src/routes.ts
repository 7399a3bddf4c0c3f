import { path } from "unruffled/route";
import {
  bindCourse,
  courseEvents,
  createCourse,
  createStudent,
  hello,
  listCourses,
  listStudents,
  unbindCourse,
} from "./endpoints.ts";
import { courseLive } from "./sockets.ts";

/** The app `enroll`: every route under `/api/enroll`, only GET and POST, and one WebSocket. */
export const patterns = [
  path("/hello", { endpoint: hello, name: "hello" }),
  path("/student-list", { endpoint: listStudents, methods: ["GET"], name: "list_students" }),
  path("/course-list", { endpoint: listCourses, methods: ["GET"], name: "list_courses" }),
  path("/bind", { endpoint: bindCourse, methods: ["POST"], name: "bind_course" }),
  path("/unbind", { endpoint: unbindCourse, methods: ["POST"], name: "unbind_course" }),
  path("/student-create", { endpoint: createStudent, methods: ["POST"], name: "create_student" }),
  path("/course-create", { endpoint: createCourse, methods: ["POST"], name: "create_course" }),
  path("/course-events", { endpoint: courseEvents, methods: ["GET"], name: "course_events" }),
  path("/course-live", { websocket: courseLive, name: "course_live" }),
];

export const routes = [path("/api/enroll", { routes: patterns, tags: ["enroll"] })];
