import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";

const listCourses = endpoint({
  // @ts-expect-error a marker needs the schema of its value
  params: { page: p.Query() },
  returns: JsonResponse,
  handler: () => new JsonResponse({}),
});

export const app = createApp({ routes: [path("/courses", { endpoint: listCourses, name: "list_courses" })] });
