// docs/websockets.md, "Behind nginx": the page's nginx configuration, run as written (its port and
// upstream filled in), in front of an app with a WebSocket route and an HTTP route.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { endProcessGroups, freePort, spawnGroup, waitFor } from "process-support";
import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { websocket } from "unruffled/websocket";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { z } from "zod";

const PAGE = fileURLToPath(new URL("../../../../docs/websockets.md", import.meta.url));

const echo = websocket({
  inbound: z.object({ text: z.string() }),
  outbound: z.object({ text: z.string() }),
  async handler(socket) {
    for await (const message of socket) await socket.send(message);
  },
});
const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello") });
const app = createApp({ routes: [path("/echo", { websocket: echo }), path("/hello", { endpoint: hello })] });

/** The page's nginx block: the configuration the section shows. */
async function documentedConfig(): Promise<string> {
  const page = await readFile(PAGE, "utf8");
  const section = page.slice(page.indexOf("## Behind nginx"));
  const block = /```nginx\n([\s\S]*?)\n```/.exec(section);
  if (block === null) throw new Error("docs/websockets.md has no nginx block under Behind nginx");
  return block[1]!;
}

let folder: string;
let port: number;
beforeAll(async () => {
  await app.listen({ port: 0 });
  folder = await mkdtemp(join(tmpdir(), "unruffled-nginx-"));
  port = await freePort();
  const documented = await documentedConfig();
  const served = documented
    .replace("listen 443 ssl;", `listen 127.0.0.1:${port};`)
    .replace("proxy_pass http://unruffled;", `proxy_pass http://127.0.0.1:${app.address()!.port};`);
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
${served}
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

describe("a WebSocket route behind the page's nginx configuration", () => {
  it("opens for a page of the proxy's own origin, carries messages both ways, and leaves HTTP routes alone", async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/echo`, { origin: `http://127.0.0.1:${port}` });
    await new Promise((resolve, reject) => {
      socket.once("open", resolve);
      socket.once("error", reject);
    });
    const echoed = new Promise((resolve) =>
      socket.once("message", (data) => resolve(JSON.parse(String(data)))),
    );
    socket.send(JSON.stringify({ text: "through nginx" }));
    expect(await echoed).toEqual({ text: "through nginx" });
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    socket.close(1000);
    expect(await closed).toBe(1000);
    const answer = await fetch(`http://127.0.0.1:${port}/hello`);
    expect([answer.status, await answer.text()]).toEqual([200, "Hello"]);
  });

  it("still refuses a page of another origin with 403", async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/echo`, { origin: "https://evil.example" });
    const status = await new Promise<number>((resolve, reject) => {
      socket.once("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      socket.once("open", () => reject(new Error("the socket opened")));
      socket.once("error", () => {});
    });
    expect(status).toBe(403);
  });
});
