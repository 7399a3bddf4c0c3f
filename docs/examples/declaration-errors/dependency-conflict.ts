import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { dependency, endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const paging = dependency({
  params: { size: p.Query(z.int(), { default: 10 }) },
  resolve: (_request, { size }) => ({ limit: size }),
});

const listCourses = endpoint({
  params: { paging: p.Depends(paging), size: p.Query(z.enum(["small", "large"]).optional()) },
  returns: JsonResponse,
  handler: (_request, params) => new JsonResponse(params),
});

export const app = createApp({ routes: [path("/courses", { endpoint: listCourses, name: "list_courses" })] });
