import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";

const listCourses = endpoint({
  // @ts-expect-error a value is not a declaration: TypeScript refuses it, and so does the app
  params: { page: 1 },
  returns: JsonResponse,
  handler: () => new JsonResponse({}),
});

export const app = createApp({ routes: [path("/courses", { endpoint: listCourses, name: "list_courses" })] });
