import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const getStudent = endpoint({
  params: { student_id: p.Path(z.int(), { ge: 1, description: "The student's id" }) },
  returns: JsonResponse,
  handler: (_request, { student_id }) => new JsonResponse({ student_id }),
});

// A model groups several placeholders; its field names are the placeholder names.
const EnrolmentKey = z.object({ student_id: z.int(), course_code: z.string().regex(/^[A-Z]+-\d+$/) });

const getEnrolment = endpoint({
  params: { key: p.Path(EnrolmentKey) },
  returns: JsonResponse,
  handler: (_request, { key }) => new JsonResponse(key),
});

export const app = createApp({
  routes: [
    path("/students/{student_id}", { endpoint: getStudent }),
    path("/students/{student_id}/courses/{course_code}", { endpoint: getEnrolment }),
  ],
});
