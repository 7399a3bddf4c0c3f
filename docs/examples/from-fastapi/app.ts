import { createApp, HttpError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Student = z
  .object({ id: z.int(), name: z.string().max(100), email: z.email() })
  .meta({ id: "Student" });

const StudentPage = z.object({ page: z.int(), items: z.array(Student) }).meta({ id: "StudentPage" });

const students = [{ id: 1, name: "Ann Lee", email: "ann@example.org" }];

const listStudents = endpoint({
  summary: "List students",
  params: {
    page: p.Query(z.int(), { default: 1, ge: 1, description: "Page number" }),
    search: p.Query(z.string().max(50).optional()),
    x_school: p.Header(z.string(), { default: "main" }),
  },
  returns: [p.ResponseSpec({ model: StudentPage })],
  handler(_request, { page, search }) {
    const items = students.filter((student) => search === undefined || student.name.includes(search));
    return new JsonResponse({ page, items });
  },
});

const getStudent = endpoint({
  params: { student_id: p.Path(z.int(), { gt: 0 }) },
  returns: [p.ResponseSpec({ model: Student })],
  handler(_request, { student_id }) {
    const student = students.find((candidate) => candidate.id === student_id);
    if (student === undefined) throw new HttpError(404, `Student ${student_id} not found`);
    return new JsonResponse(student);
  },
});

export const app = createApp({
  settings: { OPENAPI: { info: { title: "School", version: "1.0.0" }, allow_public: true } },
  routes: [
    path("/students", {
      tags: ["students"],
      routes: [
        path("/", { endpoint: listStudents, name: "list_students" }),
        path("/{student_id}", { endpoint: getStudent, name: "get_student" }),
      ],
    }),
  ],
});
