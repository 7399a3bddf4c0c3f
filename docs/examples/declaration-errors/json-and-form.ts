import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Course = z.object({ name: z.string(), credits: z.int() });

const createCourse = endpoint({
  params: { course: Course, draft: p.Form(z.boolean(), { default: false }) },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params),
});

export const app = createApp({
  routes: [path("/courses", { endpoint: createCourse, methods: ["POST"], name: "create_course" })],
});
