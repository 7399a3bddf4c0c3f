import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureApp } from "./fixture-app.ts";
import { REPOSITORY_ROOT } from "./support/repository.ts";

const run = promisify(execFile);
// openapi-typescript needs TypeScript 5.9's compiler API, so it lives in the tools/typed-client scope.
const OPENAPI_TYPESCRIPT = join(
  REPOSITORY_ROOT,
  "tools/typed-client/node_modules/openapi-typescript/bin/cli.js",
);
const TSC = join(REPOSITORY_ROOT, "node_modules/typescript/bin/tsc");

/** A client as an application would write it: openapi-fetch typed by the generated `paths`. */
const CLIENT_SOURCE = `import createClient from "openapi-fetch";
import type { components, paths } from "./schema.d.ts";

const client = createClient<paths>({ baseUrl: process.argv[2]! });

const student = await client.GET("/api/students/{student_id}", { params: { path: { student_id: 1 } } });
const name: string | undefined = student.data?.data.name;

const page = await client.GET("/api/students", {
  params: {
    query: { page: 2, size: 5, tag: ["a", "b"], active: false },
    header: { "x-token": "secret" },
  },
});
const students: components["schemas"]["Student-Output"][] | undefined = page.data?.data;

const bound = await client.POST("/api/bind", { body: { student_id: 1, course_id: 2 } });
const binding: components["schemas"]["BindRequest"] | undefined = bound.data;

const enrolled = await client.POST("/api/enrol", { body: { student_id: 3, course_id: 4, note: "late" } });

const created = await client.POST("/api/students/form", {
  body: { name: "Grace", "e-mail": "grace@example.org", age: 20 },
  bodySerializer: (body) => new URLSearchParams({ name: body.name, "e-mail": body["e-mail"], age: String(body.age) }),
  headers: { "content-type": "application/x-www-form-urlencoded" },
});

// openapi-typescript types a binary string as string: here it carries the file's name.
const uploaded = await client.POST("/api/students/{student_id}/documents", {
  params: { path: { student_id: 7 } },
  body: { avatar: "face.png", title: "Report" },
  bodySerializer(body) {
    const form = new FormData();
    form.append("avatar", new Blob(["png"], { type: "image/png" }), body.avatar);
    form.append("title", body.title);
    return form;
  },
  parseAs: "text",
});

const invalid = await client.GET("/api/students", {
  params: { query: { page: 0 }, header: { "x-token": "secret" } },
});
const issue: components["schemas"]["ValidationIssue"] | undefined = invalid.error?.detail[0];

// Never called: what the generated types refuse.
export function refusedByTheTypes() {
  // @ts-expect-error the path parameter is an integer
  void client.GET("/api/students/{student_id}", { params: { path: { student_id: "one" } } });
  // @ts-expect-error course_id is required
  void client.POST("/api/bind", { body: { student_id: 1 } });
  // @ts-expect-error the header x-token is required
  void client.GET("/api/students", { params: { query: {} } });
}

console.log(JSON.stringify({
  student: { status: student.response.status, name },
  page: { status: page.response.status, students, echo: JSON.parse(page.response.headers.get("x-echo")!) },
  bound: { status: bound.response.status, binding, location: bound.response.headers.get("location") },
  enrolled: { status: enrolled.response.status, data: enrolled.data },
  created: { status: created.response.status, data: created.data },
  uploaded: { status: uploaded.response.status, data: uploaded.data },
  invalid: { status: invalid.response.status, issue },
}));
`;

const TSCONFIG = {
  compilerOptions: {
    target: "es2023",
    lib: ["es2023", "dom"],
    module: "nodenext",
    moduleResolution: "nodenext",
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    erasableSyntaxOnly: true,
    types: ["node"],
  },
  files: ["client.ts"],
};

describe("a typed client generated from the served document", () => {
  let server: RunningServer;
  let folder: string;

  beforeAll(async () => {
    server = await startServer(fixtureApp());
    folder = await mkdtemp(join(tmpdir(), "unruffled-typed-client-"));
    // The client resolves openapi-fetch and @types/node from the repository, as an app would.
    await symlink(join(REPOSITORY_ROOT, "node_modules"), join(folder, "node_modules"), "dir");
    await writeFile(join(folder, "package.json"), JSON.stringify({ type: "module" }));
    await writeFile(join(folder, "tsconfig.json"), JSON.stringify(TSCONFIG));
    await writeFile(join(folder, "client.ts"), CLIENT_SOURCE);
  });
  afterAll(async () => {
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("generates schema.d.ts from /openapi/openapi.json with openapi-typescript", async () => {
    await run(process.execPath, [
      OPENAPI_TYPESCRIPT,
      `${server.url}/openapi/openapi.json`,
      "--output",
      join(folder, "schema.d.ts"),
    ]);
    const schema = await readFile(join(folder, "schema.d.ts"), "utf8");
    expect(schema).toContain('"/api/students/{student_id}": {');
    expect(schema).toContain('"Student-Output": {');
  });

  it("type-checks the client and the generated types with the repository's tsc", async () => {
    const outcome = await run(process.execPath, [TSC, "-p", join(folder, "tsconfig.json")]).then(
      () => ({ code: 0, stdout: "" }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(outcome).toEqual({ code: 0, stdout: "" });
  });

  it("calls the running app successfully, under Node 24", async () => {
    const { stdout } = await run(process.execPath, [join(folder, "client.ts"), server.url], { cwd: folder });
    expect(process.versions.node.split(".")[0]).toBe("24");
    const student = { id: 1, name: "Ada", email: "ada@example.org", nickname: null };
    expect(JSON.parse(stdout)).toEqual({
      student: { status: 200, name: "Ada" },
      page: {
        status: 200,
        students: [student],
        echo: {
          page: 2,
          size: 5,
          tag: ["a", "b"],
          filter: { active: false },
          x_token: "secret",
          request_id: "none",
        },
      },
      bound: { status: 201, binding: { student_id: 1, course_id: 2 }, location: "/bindings/1" },
      enrolled: { status: 200, data: { student_id: 3, course_id: 4, note: "late" } },
      created: {
        status: 201,
        data: {
          code: 0,
          message: "created, 20",
          data: { name: "Grace", email: "grace@example.org", id: 2, nickname: null },
        },
      },
      uploaded: { status: 200, data: "7:Report:face.png:0" },
      invalid: {
        status: 422,
        issue: {
          loc: ["query", "page"],
          msg: "Too small: expected number to be >=1",
          type: "too_small",
          input: 0,
        },
      },
    });
  });
});
