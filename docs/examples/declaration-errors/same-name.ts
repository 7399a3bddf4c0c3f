import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Paging = z.object({ page: z.int().default(1), size: z.int().default(10) });
const Filters = z.object({ search: z.string().optional(), size: z.enum(["small", "large"]).optional() });

const listCourses = endpoint({
  params: { paging: p.Query(Paging), filters: p.Query(Filters) },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params),
});

export const app = createApp({ routes: [path("/courses", { endpoint: listCourses, name: "list_courses" })] });
