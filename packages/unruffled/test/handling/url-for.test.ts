// app.urlPathFor and request.urlFor (docs/endpoints-and-routes.md, "URLs of routes"): Starlette's
// url_path_for and FastAPI's request.url_for, read from the built route table.
import { createApp, NoMatchFound } from "unruffled";
import { JsonResponse, RedirectResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { startServer, testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { serve } from "../support/serve.ts";

const echo = endpoint({ returns: JsonResponse, handler: (request) => new JsonResponse(request.pathParams) });
const linkTo = endpoint({
  params: { name: p.Query(z.string()), student_id: p.Query(z.string().optional()) },
  returns: JsonResponse,
  handler: (request, { name, student_id }) =>
    new JsonResponse({ url: request.urlFor(name, student_id === undefined ? {} : { student_id }) }),
});
const app = createApp({
  settings: { PROXIES: { trusted: ["loopback"] } },
  routes: [
    path("/", { endpoint: echo, name: "home" }),
    path("/link", { endpoint: linkTo, name: "link" }),
    path("/api/v1", {
      routes: [
        path("/students/{student_id}", { endpoint: echo, name: "get_student" }),
        path("/students/{student_id}/courses/{course_id}", { endpoint: echo, name: "get_enrolment" }),
        path("/files/{file_path:path}", { endpoint: echo, name: "read_file" }),
        path("/books", { endpoint: echo, methods: ["POST"] }),
      ],
    }),
  ],
});

describe("app.urlPathFor", () => {
  it("gives the path of a named route, in its group, with its placeholders filled", () => {
    expect([
      app.urlPathFor("home"),
      app.urlPathFor("get_student", { student_id: 42 }),
      app.urlPathFor("get_enrolment", { student_id: "7", course_id: "MA101" }),
    ]).toEqual(["/", "/api/v1/students/42", "/api/v1/students/7/courses/MA101"]);
  });

  it("finds a route by the name it was given by default, <method>_<path>", () => {
    expect(app.urlPathFor("post_api_v1_books")).toBe("/api/v1/books");
  });

  it("percent-encodes a value as one segment, and keeps the slashes of a {name:path} value", () => {
    expect([
      app.urlPathFor("get_student", { student_id: "a/b c?é" }),
      app.urlPathFor("read_file", { file_path: "notes/2026 spring/ö.txt" }),
    ]).toEqual(["/api/v1/students/a%2Fb%20c%3F%C3%A9", "/api/v1/files/notes/2026%20spring/%C3%B6.txt"]);
  });

  it("gives a path that the route answers", async () => {
    const client = testClient(app);
    const response = await client.get(app.urlPathFor("get_student", { student_id: "a/b c?é" }));
    expect([response.status, response.json()]).toEqual([200, { student_id: "a/b c?é" }]);
  });

  it("refuses an unknown name with NoMatchFound", () => {
    expect(() => app.urlPathFor("get_studnet", { student_id: 1 })).toThrow(
      new NoMatchFound('No route is named "get_studnet"'),
    );
    expect(() => app.urlPathFor("get_studnet")).toThrow(NoMatchFound);
  });

  it("refuses a missing path parameter, naming the route and what it expects", () => {
    expect(() => app.urlPathFor("get_enrolment", { student_id: 7 })).toThrow(
      new NoMatchFound(
        'The route "get_enrolment" (/api/v1/students/{student_id}/courses/{course_id}) needs the path parameters student_id, course_id; course_id is missing',
      ),
    );
  });

  it("refuses a path parameter the route does not have", () => {
    expect(() => app.urlPathFor("home", { id: 1 })).toThrow(
      new NoMatchFound('The route "home" (/) has no path parameters; id is not one'),
    );
    expect(() => app.urlPathFor("get_student", { student_id: 1, page: 2 })).toThrow(
      new NoMatchFound(
        'The route "get_student" (/api/v1/students/{student_id}) needs the path parameter student_id; page is not one',
      ),
    );
  });

  it("refuses an empty value for a placeholder of one segment, which no request could match", () => {
    expect(() => app.urlPathFor("get_student", { student_id: "" })).toThrow(
      new NoMatchFound(
        'The route "get_student" (/api/v1/students/{student_id}) cannot take an empty student_id: the segment would be empty',
      ),
    );
    expect(app.urlPathFor("read_file", { file_path: "" })).toBe("/api/v1/files/");
  });

  it("refuses a value holding a lone UTF-16 surrogate, which no URL can carry, naming the route, the parameter and why", () => {
    expect(() => app.urlPathFor("get_student", { student_id: "\uD800" })).toThrow(
      new NoMatchFound(
        'The route "get_student" (/api/v1/students/{student_id}) cannot take this student_id: it holds a lone UTF-16 surrogate (\\ud800, character 1), which has no UTF-8 form, so no URL can carry it',
      ),
    );
    expect(() => app.urlPathFor("read_file", { file_path: "a/b\uDC00" })).toThrow(
      new NoMatchFound(
        'The route "read_file" (/api/v1/files/{file_path:path}) cannot take this file_path: it holds a lone UTF-16 surrogate (\\udc00, character 4), which has no UTF-8 form, so no URL can carry it',
      ),
    );
    // A whole pair is a character as any other.
    expect(app.urlPathFor("get_student", { student_id: "\uD83D\uDE00" })).toBe(
      "/api/v1/students/%F0%9F%98%80",
    );
  });
});

describe("request.urlFor", () => {
  it("gives an absolute URL from the request's origin", async () => {
    const server = await serve([
      path("/link", { endpoint: linkTo }),
      path("/students/{student_id}", { endpoint: echo, name: "get_student" }),
    ]);
    const response = await server.fetch("/link?name=get_student&student_id=42");
    expect(await response.json()).toEqual({ url: `${server.url}/students/42` });
  });

  it("takes the origin a trusted proxy forwards", async () => {
    const server = await startServer(app);
    try {
      const response = await server.fetch("/link?name=get_student&student_id=42", {
        headers: {
          "x-forwarded-for": "203.0.113.7",
          "x-forwarded-proto": "https",
          "x-forwarded-host": "school.example",
        },
      });
      expect(await response.json()).toEqual({ url: "https://school.example/api/v1/students/42" });
    } finally {
      await server.close();
    }
  });

  it("answers an unknown name as an error of the handler: 500, the NoMatchFound logged", async () => {
    const response = await testClient(app).get("/link", { query: { name: "nowhere" } });
    expect([response.status, response.json()]).toEqual([500, { detail: "Internal Server Error" }]);
  });

  it("redirects to another route with RedirectResponse", async () => {
    const moved = endpoint({
      returns: RedirectResponse,
      handler: (request) => new RedirectResponse(request.urlFor("home")),
    });
    const server = await serve([
      path("/", { endpoint: echo, name: "home" }),
      path("/old", { endpoint: moved }),
    ]);
    const response = await server.fetch("/old", { redirect: "manual" });
    expect([response.status, response.headers.get("location")]).toEqual([307, `${server.url}/`]);
  });
});
