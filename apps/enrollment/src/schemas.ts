import { ValidationIssueSchema } from "unruffled";
import { z } from "zod";

/**
 * The envelope of every answer: `{ code, message, data }`, `code` 0 on success. A function of the
 * data model, so each use is a named model of its own in the OpenAPI document.
 */
export function BaseResponse<T extends z.ZodType>(data: T, name: string) {
  return z
    .object({
      code: z.int().default(0).describe("Response code, 0 = success"),
      message: z.string().default("").describe("Response message"),
      data,
    })
    .meta({ id: name });
}

/**
 * A string a text column can store: PostgreSQL refuses the NUL character, so it is refused here as a
 * validation failure (422) instead of failing in the database (500).
 */
export function storableText() {
  return z.string().refine((text) => !text.includes("\u0000"), "Must not contain the NUL character");
}

export const StudentSerializer = z
  .object({
    id: z.int(),
    name: z.string().max(100),
    email: z.string(),
    age: z.int(),
    student_id: z.string().max(20).describe("The school's student number"),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "StudentSerializer" });

export const CourseSerializer = z
  .object({
    id: z.int(),
    name: z.string().max(200),
    code: z.string().max(20),
    description: z.string(),
    credits: z.int(),
    max_students: z.int(),
    is_active: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "CourseSerializer" });

export const StudentListResponse = BaseResponse(z.array(StudentSerializer), "StudentListResponse");
export const CourseListResponse = BaseResponse(z.array(CourseSerializer), "CourseListResponse");
export const StudentResponse = BaseResponse(StudentSerializer, "StudentResponse");
export const CourseResponse = BaseResponse(CourseSerializer, "CourseResponse");

// Ids are 32-bit integer columns on PostgreSQL: a larger id is refused here, not by the database (500).
const MAX_ID = 2_147_483_647;

export const BindRequest = z
  .object({
    student_id: z.int().gt(0).max(MAX_ID).describe("The student's id"),
    course_id: z.int().gt(0).max(MAX_ID).describe("The course's id"),
  })
  .meta({ id: "BindRequest" });

export const BindResponse = BaseResponse(
  z.object({ student_id: z.int(), course_id: z.int() }).describe("The pair that was bound or unbound"),
  "BindResponse",
);

export const StudentCreate = z
  .object({
    name: storableText().trim().min(1).max(100),
    email: z.email().max(254),
    age: z.int().min(1).max(150),
    student_id: storableText().trim().min(1).max(20).describe("The school's student number"),
  })
  .meta({ id: "StudentCreate" });

export const CourseCreate = z
  .object({
    name: storableText().trim().min(1).max(200),
    code: storableText().trim().min(1).max(20),
    description: storableText().max(2000).default(""),
    credits: z.int().min(0).max(60).default(3),
    max_students: z.int().min(1).max(100_000).default(50),
    is_active: z.boolean().default(true),
  })
  .meta({ id: "CourseCreate" });

/** What a course's event stream sends: its seats, now and after every bind and unbind. */
export const CourseSeats = z
  .object({
    course_id: z.int(),
    enrolled: z.int().describe("Seats taken"),
    max_students: z.int(),
    seats_left: z.int().describe("Seats still free"),
  })
  .meta({ id: "CourseSeats" });

/** The envelope of every failure: the code of the spec's table, and the issues of a validation failure. */
export const ErrorResponse = z
  .object({
    code: z.int().describe("400, 404, 405, 409, 413, 422 or 500"),
    message: z.string(),
    data: z.union([z.object({ errors: z.array(ValidationIssueSchema) }), z.null()]),
  })
  .meta({ id: "ErrorResponse" });

/** What a `course-live` client sends: follow or unfollow a course. */
export const CourseLiveIn = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("follow"), course_id: z.int().gt(0) }),
    z.object({ type: z.literal("unfollow"), course_id: z.int().gt(0) }),
  ])
  .meta({ id: "CourseLiveIn" });

/** What `course-live` sends: a followed course's seats (now, then as they change), or a course it does not know. */
export const CourseLiveOut = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("seats"), seats: CourseSeats }),
    z.object({ type: z.literal("unknown_course"), course_id: z.int() }),
  ])
  .meta({ id: "CourseLiveOut" });
