import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const listCourses = endpoint({
  params: { since: p.Query(z.date()) },
  returns: JsonResponse,
  handler: (_request, { since }) => new JsonResponse({ since }),
});

export const app = createApp({ routes: [path("/courses", { endpoint: listCourses, name: "list_courses" })] });
