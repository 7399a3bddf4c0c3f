import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const listCourses = endpoint({
  // Meant as "?archived_at=null": text has no null, so every request would get a 422.
  params: { archived_at: p.Query(z.null()) },
  returns: JsonResponse,
  handler: (_request, { archived_at }) => new JsonResponse({ archived_at }),
});

export const app = createApp({ routes: [path("/courses", { endpoint: listCourses, name: "list_courses" })] });
