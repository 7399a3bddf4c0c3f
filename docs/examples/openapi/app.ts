import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { z } from "zod";

const Course = z
  .object({
    id: z.int(),
    code: z
      .string()
      .max(20)
      .meta({ examples: ["CS-101"] }),
    credits: z.int().min(1).default(3),
  })
  .meta({ id: "Course", description: "A course of the catalogue" });

const CourseList = z.object({ total: z.int(), items: z.array(Course) }).meta({ id: "CourseList" });

const listCourses = endpoint({
  summary: "List courses",
  description: "One page of the catalogue, ordered by code.",
  params: {
    page: p.Query(z.int(), { default: 1, ge: 1, description: "Page number, from 1" }),
    x_request_id: p.Header(z.string().optional(), { description: "Echoed in the answer" }),
  },
  returns: [
    p.ResponseSpec({
      model: CourseList,
      description: "A page of courses",
      headers: { "x-request-id": "The request's id" },
    }),
  ],
  handler: () => new JsonResponse({ total: 0, items: [] }),
});

export const app = createApp({
  settings: {
    OPENAPI: {
      info: {
        title: "Catalogue",
        version: "1.4.0",
        summary: "The course catalogue",
        description: "Courses and their credits.",
        contact: { name: "Registry", email: "registry@example.edu" },
        license: { name: "MIT License", identifier: "MIT" },
      },
      servers: [{ url: "/", description: "This server" }],
      tags: [{ name: "courses", description: "What can be taken, for how many credits" }],
      externalDocs: { url: "https://example.edu/catalogue", description: "The printed catalogue" },
      allow_public: true,
    },
  },
  routes: [path("/courses", { endpoint: listCourses, name: "list_courses", tags: ["courses"] })],
});
