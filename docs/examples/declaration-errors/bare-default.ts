import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { z } from "zod";

const listCourses = endpoint({
  // Write p.Query(z.int(), { default: 1 }) instead.
  params: { page: z.int().default(1) },
  returns: JsonResponse,
  handler: (_request, { page }) => new JsonResponse({ page }),
});

export const app = createApp({ routes: [path("/courses", { endpoint: listCourses, name: "list_courses" })] });
