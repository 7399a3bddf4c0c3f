import { p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { echo } from "../../support/echo.ts";
import { bodyOf, openRaw } from "../../support/raw-http.ts";
import { JSON_HEADERS, jsonOf, serve, serveEndpoint } from "../../support/serve.ts";

describe("rule 2: Path reads the {name} placeholders", () => {
  it("fills a scalar from its placeholder", async () => {
    const server = await serveEndpoint("/students/{student_id}", echo({ student_id: p.Path(z.int()) }));
    expect(await jsonOf(server.fetch("/students/7"))).toEqual({ status: 200, body: { student_id: 7 } });
  });

  it("groups several placeholders in a model whose field names are the placeholder names", async () => {
    const Ids = z.object({ student_id: z.int(), course_id: z.string() });
    const server = await serveEndpoint(
      "/students/{student_id}/courses/{course_id}",
      echo({ ids: p.Path(Ids) }),
    );
    expect(await jsonOf(server.fetch("/students/7/courses/CS-101"))).toEqual({
      status: 200,
      body: { ids: { student_id: 7, course_id: "CS-101" } },
    });
  });

  it("percent-decodes placeholder values", async () => {
    const server = await serveEndpoint("/tags/{tag}", echo({ tag: p.Path(z.string()) }));
    expect(await jsonOf(server.fetch("/tags/caf%C3%A9%20bar"))).toEqual({
      status: 200,
      body: { tag: "café bar" },
    });
  });
});

describe("rule 3: Query reads the query string", () => {
  const Filters = z.object({ search: z.string().optional(), active: z.boolean().default(true) });

  it("fills a scalar with its default when absent", async () => {
    const server = await serveEndpoint("/list", echo({ page: p.Query(z.int(), { default: 1 }) }));
    expect(await jsonOf(server.fetch("/list"))).toEqual({ status: 200, body: { page: 1 } });
    expect(await jsonOf(server.fetch("/list?page=3"))).toEqual({ status: 200, body: { page: 3 } });
  });

  it("groups parameters in a model whose fields carry their own defaults", async () => {
    const server = await serveEndpoint("/list", echo({ filters: p.Query(Filters) }));
    expect(await jsonOf(server.fetch("/list?search=ann"))).toEqual({
      status: 200,
      body: { filters: { search: "ann", active: true } },
    });
    expect(await jsonOf(server.fetch("/list?active=no"))).toEqual({
      status: 200,
      body: { filters: { active: false } },
    });
  });

  it("fills a list from repeated keys, and a list of one from a single key", async () => {
    const server = await serveEndpoint("/list", echo({ tag: p.Query(z.array(z.string())) }));
    expect(await jsonOf(server.fetch("/list?tag=a&tag=b"))).toEqual({
      status: 200,
      body: { tag: ["a", "b"] },
    });
    expect(await jsonOf(server.fetch("/list?tag=a"))).toEqual({ status: 200, body: { tag: ["a"] } });
  });

  it("takes the last value of a repeated key for a scalar", async () => {
    const server = await serveEndpoint("/list", echo({ page: p.Query(z.int()) }));
    expect(await jsonOf(server.fetch("/list?page=1&page=2"))).toEqual({ status: 200, body: { page: 2 } });
  });

  it("reads the alias on the wire", async () => {
    const server = await serveEndpoint(
      "/list",
      echo({ pageSize: p.Query(z.int(), { alias: "page-size", default: 10 }) }),
    );
    expect(await jsonOf(server.fetch("/list?page-size=25"))).toEqual({ status: 200, body: { pageSize: 25 } });
    expect(await jsonOf(server.fetch("/list?pageSize=25"))).toEqual({ status: 200, body: { pageSize: 10 } });
  });

  it("reads a model field's alias given with .meta({ alias })", async () => {
    const Paging = z.object({ pageSize: z.int().meta({ alias: "page[size]" }) });
    const server = await serveEndpoint("/list", echo({ paging: p.Query(Paging) }));
    expect(await jsonOf(server.fetch("/list?page%5Bsize%5D=5"))).toEqual({
      status: 200,
      body: { paging: { pageSize: 5 } },
    });
  });
});

describe("rule 4: Header reads HTTP headers", () => {
  it("makes a scalar without default required and one with a default optional", async () => {
    const server = await serveEndpoint(
      "/h",
      echo({ authorization: p.Header(z.string()), x_locale: p.Header(z.string(), { default: "en" }) }),
    );
    expect(await jsonOf(server.fetch("/h", { headers: { Authorization: "Bearer t" } }))).toEqual({
      status: 200,
      body: { authorization: "Bearer t", x_locale: "en" },
    });
    expect(await jsonOf(server.fetch("/h"))).toEqual({
      status: 422,
      body: {
        detail: [{ loc: ["header", "authorization"], msg: "Field required", type: "missing", input: null }],
      },
    });
  });

  it("maps x_token and xToken to the header x-token, case-insensitively", async () => {
    const server = await serveEndpoint(
      "/h",
      echo({ x_token: p.Header(z.string()), xRequestId: p.Header(z.string()) }),
    );
    expect(await jsonOf(server.fetch("/h", { headers: { "X-TOKEN": "abc", "x-request-id": "r1" } }))).toEqual(
      {
        status: 200,
        body: { x_token: "abc", xRequestId: "r1" },
      },
    );
  });

  it("splits a camelCase name at each word: a run of capitals is one word, a leading X is the X- prefix, a leading single capital joins the next word", async () => {
    const Headers = z.object({
      XRequestId: z.string(),
      XForwardedFor: z.string(),
      XAPIKey: z.string(),
      contentMD5: z.string(),
      ETag: z.string(),
      IfNoneMatch: z.string(),
      UserAgent: z.string(),
      XMLSignature: z.string(),
    });
    const server = await serveEndpoint(
      "/h",
      echo({ headers: p.Header(Headers), XCSRFToken: p.Header(z.string()) }),
    );
    const sent = {
      "x-request-id": "r1",
      "x-forwarded-for": "10.0.0.1",
      "x-api-key": "k",
      "content-md5": "Q2hlY2sgSW50ZWdyaXR5IQ==",
      etag: '"v1"',
      "if-none-match": '"v0"',
      "user-agent": "curl/8.5",
      "x-ml-signature": "s",
      "x-csrf-token": "c",
    };
    expect(await jsonOf(server.fetch("/h", { headers: sent }))).toEqual({
      status: 200,
      body: {
        headers: {
          XRequestId: "r1",
          XForwardedFor: "10.0.0.1",
          XAPIKey: "k",
          contentMD5: "Q2hlY2sgSW50ZWdyaXR5IQ==",
          ETag: '"v1"',
          IfNoneMatch: '"v0"',
          UserAgent: "curl/8.5",
          XMLSignature: "s",
        },
        XCSRFToken: "c",
      },
    });
  });

  it("keeps a name with underscores or hyphens as it maps today: each underscore is a hyphen, camelCase splits after a lower-case letter", async () => {
    const Headers = z.object({ X_RequestId: z.string(), "x-APIKey": z.string() });
    const server = await serveEndpoint("/h", echo({ headers: p.Header(Headers) }));
    expect(await jsonOf(server.fetch("/h", { headers: { "x-request-id": "r1", "x-apikey": "k" } }))).toEqual({
      status: 200,
      body: { headers: { X_RequestId: "r1", "x-APIKey": "k" } },
    });
  });

  it("reads an alias instead of the mapped name", async () => {
    const server = await serveEndpoint("/h", echo({ token: p.Header(z.string(), { alias: "X-Api-Key" }) }));
    expect(await jsonOf(server.fetch("/h", { headers: { "x-api-key": "k" } }))).toEqual({
      status: 200,
      body: { token: "k" },
    });
  });

  it("groups headers in a model, mapping its field names", async () => {
    const Headers = z.object({ user_agent: z.string(), x_trace: z.string().default("none") });
    const server = await serveEndpoint("/h", echo({ headers: p.Header(Headers) }));
    expect(await jsonOf(server.fetch("/h", { headers: { "user-agent": "test-agent" } }))).toEqual({
      status: 200,
      body: { headers: { user_agent: "test-agent", x_trace: "none" } },
    });
  });

  it("fills a list from a comma-separated header", async () => {
    const server = await serveEndpoint("/h", echo({ x_ids: p.Header(z.array(z.int())) }));
    expect(await jsonOf(server.fetch("/h", { headers: { "x-ids": "1, 2,3" } }))).toEqual({
      status: 200,
      body: { x_ids: [1, 2, 3] },
    });
  });
});

describe("rule 4: an alias names the header exactly, underscores included", () => {
  it("reads strange_header from the header strange_header, not strange-header (FastAPI's convert_underscores=False)", async () => {
    const server = await serveEndpoint(
      "/h",
      echo({ strange: p.Header(z.string(), { alias: "strange_header", default: "none" }) }),
    );
    const send = async (line: string) => {
      const exchange = await openRaw(server.port);
      await exchange.write(`GET /h HTTP/1.1\r\nHost: x\r\n${line}\r\nConnection: close\r\n\r\n`);
      return JSON.parse(bodyOf(await exchange.closed()));
    };
    expect(await send("strange_header: FastAPI test")).toEqual({ strange: "FastAPI test" });
    expect(await send("strange-header: FastAPI test")).toEqual({ strange: "none" });
  });
});

describe("rule 4: a list header may also come repeated", () => {
  it("fills a list from the header repeated, each line split at its commas", async () => {
    const server = await serveEndpoint(
      "/h",
      echo({
        accept_language: p.Header(z.array(z.string()), { default: [] }),
        x_ids: p.Header(z.array(z.int())),
      }),
    );
    const exchange = await openRaw(server.port);
    await exchange.write(
      "GET /h HTTP/1.1\r\nHost: x\r\nAccept-Language: fr\r\nAccept-Language: en\r\nX-Ids: 1\r\nx-ids: 2, 3\r\nConnection: close\r\n\r\n",
    );
    expect(JSON.parse(bodyOf(await exchange.closed()))).toEqual({
      accept_language: ["fr", "en"],
      x_ids: [1, 2, 3],
    });
  });
});

describe("rule 10: alias names a cookie, a form field and a JSON key on the wire", () => {
  it("reads each from its alias", async () => {
    const cookie = await serveEndpoint(
      "/c",
      echo({ sessionId: p.Cookie(z.string(), { alias: "session-id" }) }),
    );
    expect(await jsonOf(cookie.fetch("/c", { headers: { cookie: "session-id=abc; sessionId=no" } }))).toEqual(
      {
        status: 200,
        body: { sessionId: "abc" },
      },
    );
    const form = await serveEndpoint("/f", echo({ userName: p.Form(z.string(), { alias: "user-name" }) }), [
      "POST",
    ]);
    const fields = new URLSearchParams({ "user-name": "ann", userName: "no" });
    expect(await jsonOf(form.fetch("/f", { method: "POST", body: fields }))).toEqual({
      status: 200,
      body: { userName: "ann" },
    });
    const json = await serveEndpoint(
      "/j",
      echo({ dryRun: p.Json(z.boolean(), { alias: "dry-run" }), count: p.Json(z.int()) }),
      ["POST"],
    );
    const body = '{"dry-run":true,"dryRun":false,"count":2}';
    expect(await jsonOf(json.fetch("/j", { method: "POST", headers: JSON_HEADERS, body }))).toEqual({
      status: 200,
      body: { dryRun: true, count: 2 },
    });
  });
});

describe("rule 5: Cookie reads request cookies", () => {
  it("reads a scalar and a model", async () => {
    const Prefs = z.object({ theme: z.enum(["light", "dark"]), font_size: z.int().default(12) });
    const server = await serveEndpoint("/c", echo({ session: p.Cookie(z.string()), prefs: p.Cookie(Prefs) }));
    expect(await jsonOf(server.fetch("/c", { headers: { cookie: "session=s%201; theme=dark" } }))).toEqual({
      status: 200,
      body: { session: "s 1", prefs: { theme: "dark", font_size: 12 } },
    });
  });
});

describe("a strict model (z.strictObject) of the query, the headers or the cookies refuses what it does not declare", () => {
  it("refuses a query key no parameter reads, one issue per key with the value sent; keys other parameters read are not extra", async () => {
    const Filters = z.strictObject({ limit: z.int().default(100), tags: z.array(z.string()).default([]) });
    const server = await serveEndpoint(
      "/items",
      echo({ filters: p.Query(Filters), page: p.Query(z.int(), { default: 1 }) }),
    );
    expect(await jsonOf(server.fetch("/items?limit=10&page=2&tags=a&tags=b"))).toEqual({
      status: 200,
      body: { filters: { limit: 10, tags: ["a", "b"] }, page: 2 },
    });
    expect(
      await jsonOf(server.fetch("/items?limit=10&tool=plumbus&x=1&x=2&__proto__=p&__proto__=q")),
    ).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["query", "tool"],
            msg: 'Unrecognized key: "tool"',
            type: "unrecognized_keys",
            input: "plumbus",
          },
          { loc: ["query", "x"], msg: 'Unrecognized key: "x"', type: "unrecognized_keys", input: ["1", "2"] },
          {
            loc: ["query", "__proto__"],
            msg: 'Unrecognized key: "__proto__"',
            type: "unrecognized_keys",
            input: ["p", "q"],
          },
        ],
      },
    });
  });

  it("refuses a cookie it does not declare", async () => {
    const Cookies = z.strictObject({ session_id: z.string(), tracker: z.string().optional() });
    const server = await serveEndpoint("/c", echo({ cookies: p.Cookie(Cookies) }));
    expect(await jsonOf(server.fetch("/c", { headers: { cookie: "session_id=123" } }))).toEqual({
      status: 200,
      body: { cookies: { session_id: "123" } },
    });
    const refused = server.fetch("/c", { headers: { cookie: "session_id=123; shopping_cart=cookies" } });
    expect(await jsonOf(refused)).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["cookie", "shopping_cart"],
            msg: 'Unrecognized key: "shopping_cart"',
            type: "unrecognized_keys",
            input: "cookies",
          },
        ],
      },
    });
  });

  it("refuses a header it does not declare: every header the client sends counts, Host included", async () => {
    const Headers = z.strictObject({
      host: z.string(),
      save_data: z.boolean(),
      x_tag: z.array(z.string()).default([]),
    });
    const server = await serveEndpoint("/h", echo({ headers: p.Header(Headers) }));
    const send = async (lines: string) => {
      const exchange = await openRaw(server.port);
      await exchange.write(`GET /h HTTP/1.1\r\nHost: x\r\n${lines}Connection: close\r\n\r\n`);
      return JSON.parse(bodyOf(await exchange.closed()));
    };
    expect(await send("Save-Data: true\r\nX-Tag: one\r\nX-Tag: two\r\n")).toEqual({
      detail: [
        {
          loc: ["header", "connection"],
          msg: 'Unrecognized key: "connection"',
          type: "unrecognized_keys",
          input: "close",
        },
      ],
    });
    const Declared = Headers.extend({ connection: z.string() });
    const declared = await serveEndpoint("/h", echo({ headers: p.Header(Declared) }));
    const exchange = await openRaw(declared.port);
    await exchange.write(
      "GET /h HTTP/1.1\r\nHost: x\r\nSave-Data: true\r\nTool: plumbus\r\nConnection: close\r\n\r\n",
    );
    expect(JSON.parse(bodyOf(await exchange.closed()))).toEqual({
      detail: [
        {
          loc: ["header", "tool"],
          msg: 'Unrecognized key: "tool"',
          type: "unrecognized_keys",
          input: "plumbus",
        },
      ],
    });
  });

  it("neither reads a field from a header spelt as its key (save_data for save-data) nor calls that header extra", async () => {
    const Headers = z.strictObject({ host: z.string(), connection: z.string(), save_data: z.boolean() });
    const server = await serveEndpoint("/h", echo({ headers: p.Header(Headers) }));
    const exchange = await openRaw(server.port);
    await exchange.write("GET /h HTTP/1.1\r\nHost: x\r\nSave_Data: yes\r\nConnection: close\r\n\r\n");
    expect(JSON.parse(bodyOf(await exchange.closed()))).toEqual({
      detail: [{ loc: ["header", "save-data"], msg: "Field required", type: "missing", input: null }],
    });
  });

  // pydantic with extra="forbid" and an alias (populate_by_name off) takes a key spelt as the field's
  // own name for an extra one: FastAPI reports it extra_forbidden at that key.
  it("refuses a key spelt as a field's name instead of its alias, in the query, the headers and the cookies", async () => {
    const unrecognized = (location: string, name: string, input: unknown) => ({
      loc: [location, name],
      msg: `Unrecognized key: ${JSON.stringify(name)}`,
      type: "unrecognized_keys",
      input,
    });
    const Query = z.strictObject({ user_name: z.string().meta({ alias: "userName" }) });
    const Cookies = z.strictObject({ session_id: z.string().meta({ alias: "sessionId" }) });
    const Headers = z.strictObject({
      host: z.string(),
      connection: z.string(),
      token: z.string().meta({ alias: "X-Token" }),
    });
    const server = await serve([
      path("/q", { endpoint: echo({ query: p.Query(Query) }) }),
      path("/c", { endpoint: echo({ cookies: p.Cookie(Cookies) }) }),
      path("/h", { endpoint: echo({ headers: p.Header(Headers) }) }),
    ]);
    expect(await jsonOf(server.fetch("/q?userName=ann&user_name=bob"))).toEqual({
      status: 422,
      body: { detail: [unrecognized("query", "user_name", "bob")] },
    });
    expect(await jsonOf(server.fetch("/q?user_name=bob"))).toEqual({
      status: 422,
      body: {
        detail: [
          { loc: ["query", "userName"], msg: "Field required", type: "missing", input: null },
          unrecognized("query", "user_name", "bob"),
        ],
      },
    });
    expect(await jsonOf(server.fetch("/c", { headers: { cookie: "sessionId=1; session_id=2" } }))).toEqual({
      status: 422,
      body: { detail: [unrecognized("cookie", "session_id", "2")] },
    });
    const exchange = await openRaw(server.port);
    await exchange.write("GET /h HTTP/1.1\r\nHost: x\r\nX-Token: a\r\nToken: b\r\nConnection: close\r\n\r\n");
    expect(JSON.parse(bodyOf(await exchange.closed()))).toEqual({
      detail: [unrecognized("header", "token", "b")],
    });
    expect(await jsonOf(server.fetch("/q?userName=ann"))).toEqual({
      status: 200,
      body: { query: { user_name: "ann" } },
    });
  });
});

describe("rule 6: Json reads the JSON body", () => {
  const BindRequest = z.object({ student_id: z.int().gt(0), course_id: z.int().gt(0) });

  it("fills a model from the top level of the body", async () => {
    const server = await serveEndpoint("/bind", echo({ body: p.Json(BindRequest) }), ["POST"]);
    const response = server.fetch("/bind", {
      method: "POST",
      headers: JSON_HEADERS,
      body: '{"student_id":1,"course_id":2}',
    });
    expect(await jsonOf(response)).toEqual({ status: 200, body: { body: { student_id: 1, course_id: 2 } } });
  });

  it("mixes a model with scalars that read their own top-level keys", async () => {
    const server = await serveEndpoint(
      "/bind",
      echo({
        body: p.Json(BindRequest),
        note: p.Json(z.string(), { default: "" }),
        priority: p.Json(z.int(), { default: 0 }),
      }),
      ["POST"],
    );
    const response = server.fetch("/bind", {
      method: "POST",
      headers: JSON_HEADERS,
      body: '{"student_id":1,"course_id":2,"priority":5}',
    });
    expect(await jsonOf(response)).toEqual({
      status: 200,
      body: { body: { student_id: 1, course_id: 2 }, note: "", priority: 5 },
    });
  });

  it("flattens several models from the same body", async () => {
    const Student = z.object({ student_id: z.int() });
    const Course = z.object({ course_id: z.int() });
    const server = await serveEndpoint("/bind", echo({ student: p.Json(Student), course: p.Json(Course) }), [
      "POST",
    ]);
    const response = server.fetch("/bind", {
      method: "POST",
      headers: JSON_HEADERS,
      body: '{"student_id":1,"course_id":2}',
    });
    expect(await jsonOf(response)).toEqual({
      status: 200,
      body: { student: { student_id: 1 }, course: { course_id: 2 } },
    });
  });

  it("does not coerce JSON values: a string where an int is declared is an error", async () => {
    const server = await serveEndpoint("/bind", echo({ body: p.Json(BindRequest) }), ["POST"]);
    const response = server.fetch("/bind", {
      method: "POST",
      headers: JSON_HEADERS,
      body: '{"student_id":"1","course_id":2}',
    });
    expect(await jsonOf(response)).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "student_id"],
            msg: "Invalid input: expected number, received string",
            type: "invalid_type",
            input: "1",
          },
        ],
      },
    });
  });
});

describe("rule 7: Form reads an urlencoded body", () => {
  it("fills a model and a scalar with a default", async () => {
    const Login = z.object({ username: z.string(), remember: z.boolean().default(false) });
    const server = await serveEndpoint(
      "/login",
      echo({ login: p.Form(Login), next: p.Form(z.string(), { default: "/" }) }),
      ["POST"],
    );
    const response = server.fetch("/login", {
      method: "POST",
      body: new URLSearchParams({ username: "ann", remember: "on" }),
    });
    expect(await jsonOf(response)).toEqual({
      status: 200,
      body: { login: { username: "ann", remember: true }, next: "/" },
    });
  });

  it("also reads the same fields from a multipart body", async () => {
    const server = await serveEndpoint("/login", echo({ username: p.Form(z.string()) }), ["POST"]);
    const form = new FormData();
    form.set("username", "ann");
    expect(await jsonOf(server.fetch("/login", { method: "POST", body: form }))).toEqual({
      status: 200,
      body: { username: "ann" },
    });
  });
});

describe("rule 8: File reads a multipart body as UploadFile", () => {
  it("reads one file with its name, type, size and content", async () => {
    const { JsonResponse } = await import("unruffled/http");
    const { endpoint } = await import("unruffled/route");
    const upload = endpoint({
      params: { avatar: p.File() },
      returns: JsonResponse,
      async handler(_request, { avatar }) {
        const content = await avatar.read();
        return new JsonResponse({
          ...avatar.toJSON(),
          content: content.toString("utf8"),
          length: content.length,
        });
      },
    });
    const server = await serveEndpoint("/upload", upload, ["POST"]);
    const form = new FormData();
    form.set("avatar", new Blob(["hello file"], { type: "text/plain" }), "hello.txt");
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: form }))).toEqual({
      status: 200,
      body: { filename: "hello.txt", contentType: "text/plain", size: 10, content: "hello file", length: 10 },
    });
  });

  it("combines files with Form fields, scalar and model, from the same body", async () => {
    const Meta = z.object({ title: z.string(), pages: z.int() });
    const server = await serveEndpoint(
      "/upload",
      echo({ document: p.File(), meta: p.Form(Meta), public: p.Form(z.boolean(), { default: false }) }),
      ["POST"],
    );
    const form = new FormData();
    form.set("title", "Report");
    form.set("pages", "12");
    form.set("public", "yes");
    form.set("document", new Blob([new Uint8Array(2048)], { type: "application/pdf" }), "report.pdf");
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: form }))).toEqual({
      status: 200,
      body: {
        document: { filename: "report.pdf", contentType: "application/pdf", size: 2048 },
        meta: { title: "Report", pages: 12 },
        public: true,
      },
    });
  });

  it("reads a list of files under one field", async () => {
    const server = await serveEndpoint("/upload", echo({ photos: p.File({ list: true }) }), ["POST"]);
    const form = new FormData();
    form.append("photos", new Blob(["a"]), "a.jpg");
    form.append("photos", new Blob(["bb"]), "b.jpg");
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: form }))).toEqual({
      status: 200,
      body: {
        photos: [
          { filename: "a.jpg", contentType: "application/octet-stream", size: 1 },
          { filename: "b.jpg", contentType: "application/octet-stream", size: 2 },
        ],
      },
    });
  });

  it("requires a file unless it is optional", async () => {
    const server = await serveEndpoint(
      "/upload",
      echo({ avatar: p.File(), note: p.Form(z.string(), { default: "" }) }),
      ["POST"],
    );
    const form = new FormData();
    form.set("note", "no file");
    expect(await jsonOf(server.fetch("/upload", { method: "POST", body: form }))).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "avatar"], msg: "Field required", type: "missing", input: null }] },
    });
    const described = await serveEndpoint(
      "/upload",
      echo({ avatar: p.File({ description: "A photo" }), note: p.Form(z.string(), { default: "" }) }),
      ["POST"],
    );
    expect(await jsonOf(described.fetch("/upload", { method: "POST", body: form }))).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "avatar"], msg: "Field required", type: "missing", input: null }] },
    });
    const optional = await serveEndpoint(
      "/upload",
      echo({ avatar: p.File({ optional: true }), photos: p.File({ list: true, optional: true }) }),
      ["POST"],
    );
    expect(await jsonOf(optional.fetch("/upload", { method: "POST", body: form }))).toEqual({
      status: 200,
      body: { photos: [] },
    });
  });
});

describe("aliases of JSON model fields", () => {
  it("read the alias whether the model is alone in the body or beside other parameters", async () => {
    const Student = z.object({ studentId: z.int().meta({ alias: "student_id" }) });
    const alone = await serveEndpoint("/a", echo({ body: p.Json(Student) }), ["POST"]);
    const beside = await serveEndpoint(
      "/b",
      echo({ body: p.Json(Student), note: p.Json(z.string(), { default: "" }) }),
      ["POST"],
    );
    for (const [server, url, expected] of [
      [alone, "/a", { body: { studentId: 3 } }],
      [beside, "/b", { body: { studentId: 3 }, note: "" }],
    ] as const) {
      const response = server.fetch(url, { method: "POST", headers: JSON_HEADERS, body: '{"student_id":3}' });
      expect(await jsonOf(response)).toEqual({ status: 200, body: expected });
    }
  });
});
