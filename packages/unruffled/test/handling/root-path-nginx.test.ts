// docs/deployment.md, "Behind a proxy under a prefix": the page's nginx location, run as written (its
// upstream filled in), strips /api/v1 in front of an app with ROOT_PATH and trusted PROXIES.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { endProcessGroups, freePort, spawnGroup, waitFor } from "process-support";
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PAGE = fileURLToPath(new URL("../../../../docs/deployment.md", import.meta.url));

// nginx's $host has no port, so the URL the app builds has none either.
const student = endpoint({
  returns: JsonResponse,
  handler: (request) =>
    new JsonResponse({ path: request.path, self: request.urlFor("get_student", request.pathParams) }),
});
const app = createApp({
  routes: [path("/students/{student_id}", { endpoint: student, name: "get_student" })],
  settings: {
    ROOT_PATH: "/api/v1",
    PROXIES: { trusted: ["loopback"] },
    OPENAPI: { info: { title: "School", version: "1.0.0" }, allow_public: true },
  },
});

/** The page's nginx location: the configuration the section shows. */
async function documentedLocation(): Promise<string> {
  const page = await readFile(PAGE, "utf8");
  const section = page.slice(page.indexOf("## Behind a proxy under a prefix"));
  const block = /```nginx\n([\s\S]*?)\n```/.exec(section);
  if (block === null) throw new Error("docs/deployment.md has no nginx block under its prefix section");
  return block[1]!;
}

let folder: string;
let port: number;
beforeAll(async () => {
  await app.listen({ port: 0 });
  folder = await mkdtemp(join(tmpdir(), "unruffled-nginx-prefix-"));
  port = await freePort();
  const documented = await documentedLocation();
  const served = documented.replace(
    "proxy_pass http://unruffled/;",
    `proxy_pass http://127.0.0.1:${app.address()!.port}/;`,
  );
  expect(served).not.toBe(documented);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((kind) => `    ${kind}_temp_path ${join(folder, kind)};`)
    .join("\n");
  await writeFile(
    join(folder, "nginx.conf"),
    `daemon off;
worker_processes 1;
pid ${join(folder, "nginx.pid")};
error_log ${join(folder, "error.log")};
events {}
http {
    access_log off;
${temp}
    server {
        listen 127.0.0.1:${port};
${served}
    }
}
`,
  );
  spawnGroup("nginx", ["-p", folder, "-e", join(folder, "error.log"), "-c", join(folder, "nginx.conf")], {
    stdio: "ignore",
  });
  await waitFor(
    "nginx to listen",
    () =>
      new Promise<true | undefined>((resolve) => {
        const probe = connect(port, "127.0.0.1", () => {
          probe.destroy();
          resolve(true);
        });
        probe.on("error", () => resolve(undefined));
      }),
    { timeoutMs: 30_000 },
  );
}, 60_000);
afterAll(async () => {
  await endProcessGroups();
  await app.close();
  await rm(folder, { recursive: true, force: true });
});

describe("an app behind the page's nginx location under /api/v1", () => {
  it("serves a document whose servers send Swagger UI's Try it out through the prefix, and that target answers", async () => {
    const document = (await (await fetch(`http://127.0.0.1:${port}/api/v1/openapi/openapi.json`)).json()) as {
      servers: { url: string }[];
    };
    expect(document.servers).toEqual([{ url: "/api/v1" }]);
    // What Swagger UI's "Try it out" sends: the server's url joined with the operation's path.
    const target = new URL(`${document.servers[0]!.url}/students/42`, `http://127.0.0.1:${port}`);
    const answer = await fetch(target);
    expect([answer.status, await answer.json()]).toEqual([
      200,
      { path: "/students/42", self: "http://127.0.0.1/api/v1/students/42" },
    ]);
  });
});
