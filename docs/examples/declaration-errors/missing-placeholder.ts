import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const getCourse = endpoint({
  params: { course_id: p.Path(z.int()) },
  returns: JsonResponse,
  handler: (_request, { course_id }) => new JsonResponse({ course_id }),
});

export const app = createApp({
  routes: [path("/courses/{id}", { endpoint: getCourse, name: "get_course" })],
});
