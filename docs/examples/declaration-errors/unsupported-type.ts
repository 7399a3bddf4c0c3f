import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const listCourses = endpoint({
  params: { seats: p.Query(z.record(z.string(), z.int())) },
  returns: JsonResponse,
  handler: (_request, { seats }) => new JsonResponse({ seats }),
});

export const app = createApp({ routes: [path("/courses", { endpoint: listCourses, name: "list_courses" })] });
