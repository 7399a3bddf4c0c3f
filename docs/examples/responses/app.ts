import { createApp } from "unruffled";
import { HttpResponse, JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Student = z.object({ id: z.int(), name: z.string(), email: z.email() }).meta({ id: "Student" });
const StudentPage = z
  .object({ total: z.int(), page: z.int().default(1), items: z.array(Student) })
  .meta({ id: "StudentPage" });

// Rows as a database gives them: the password hash is not part of the API.
const rows = [
  { id: 1, name: "Zoë Adams", email: "zoe@example.edu", password_hash: "$argon2id$v=19$m=65536…" },
  { id: 2, name: "Ann Lee", email: "ann@example.edu", password_hash: "$argon2id$v=19$m=65536…" },
];

const listStudents = endpoint({
  returns: [p.ResponseSpec({ model: StudentPage })],
  handler: () => new JsonResponse({ total: rows.length, items: rows }),
});

// A bug: this email is not an address. Strict mode answers 500 instead of sending it.
const getStudent = endpoint({
  params: { student_id: p.Path(z.int()) },
  returns: [p.ResponseSpec({ model: Student })],
  handler: (_request, { student_id }) =>
    new JsonResponse({ id: student_id, name: "Bob", email: "bob at home" }),
});

// The escape hatch for the types: a value typed elsewhere. At run time the model still applies.
const importedStudent = endpoint({
  returns: [p.ResponseSpec({ model: Student })],
  handler: () =>
    JsonResponse.unchecked(JSON.parse('{"id":9,"name":"Eve","email":"eve@example.edu","pin":1234}')),
});

// Bytes written by the handler go out as they are: no JsonResponse, no model.
const rawStudent = endpoint({
  returns: HttpResponse,
  handler: () =>
    new HttpResponse('{"id":9,"name":"Eve","email":"eve@example.edu","pin":1234}', {}, "application/json"),
});

export const app = createApp({
  routes: [
    path("/students", { endpoint: listStudents, name: "list_students" }),
    path("/students/imported", { endpoint: importedStudent, name: "imported_student" }),
    path("/students/raw", { endpoint: rawStudent, name: "raw_student" }),
    path("/students/{student_id}", { endpoint: getStudent, name: "get_student" }),
  ],
});
