import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Enrolment = z.object({ course_id: z.int().gt(0), note: z.string().max(20).optional() });

const enrol = endpoint({
  params: {
    student_id: p.Path(z.int()),
    notify: p.Query(z.boolean(), { default: false }),
    x_api_key: p.Header(z.string().length(8)),
    enrolment: p.Json(Enrolment),
  },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params, { status: 201 }),
});

export const app = createApp({
  routes: [path("/students/{student_id}/enrolments", { endpoint: enrol, methods: ["POST"] })],
});
