import { createApp } from "unruffled";
import { JsonResponse, RedirectResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

// The old address of a course page: browsers and clients are sent on, 308 keeps the method for good.
const oldCourse = endpoint({
  params: { code: p.Path(z.string()) },
  returns: RedirectResponse,
  handler: (_request, { code }) => new RedirectResponse(`/courses/${code}`, { status: 308 }),
});

// A search from a form: the answer is a page to GET, so 303.
const search = endpoint({
  params: { q: p.Query(z.string()) },
  returns: RedirectResponse,
  handler: (_request, { q }) => new RedirectResponse(`/courses?title=${q}`, { status: 303 }),
});

const course = endpoint({
  params: { code: p.Path(z.string()) },
  returns: JsonResponse,
  handler: (_request, { code }) => new JsonResponse({ code }),
});

export const app = createApp({
  routes: [
    path("/classes/{code}", { endpoint: oldCourse, name: "old_course" }),
    path("/search", { endpoint: search, name: "search" }),
    path("/courses/{code}", { endpoint: course, name: "course" }),
  ],
});
