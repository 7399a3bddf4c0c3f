import { createApp } from "unruffled";
import { JsonResponse, RedirectResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const getCourse = endpoint({
  params: { code: p.Path(z.string()) },
  returns: JsonResponse,
  // An absolute URL, from the request's origin (as a trusted proxy forwards it).
  handler: (request, { code }) => new JsonResponse({ code, self: request.urlFor("get_course", { code }) }),
});

const newestCourse = endpoint({
  returns: RedirectResponse,
  handler: () => new RedirectResponse(app.urlPathFor("get_course", { code: "MA 101" })),
});

export const app = createApp({
  routes: [
    path("/api/v1", {
      routes: [
        path("/courses/{code}", { endpoint: getCourse, name: "get_course" }),
        path("/courses/newest", { endpoint: newestCourse, name: "newest_course" }),
      ],
    }),
  ],
});
