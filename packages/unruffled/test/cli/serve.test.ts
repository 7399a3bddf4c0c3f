import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CliProcess, FIXTURES, runCli, runCliWithEnv } from "./support/cli-process.ts";

// A process start gets 60 s on a busy machine (see support/cli-process.ts): a test gets more.
vi.setConfig({ testTimeout: 120_000 });

const SHOP = join(FIXTURES, "shop-app.ts");
const USAGE =
  "Usage: unruffled serve <app module> [--export <name>] [--port <port>] [--host <host>] [--workers <n>] [--watch] [--log-level <level>]\n";

const running: CliProcess[] = [];
function serve(...args: string[]): CliProcess {
  return serveWithEnv({}, ...args);
}
function serveWithEnv(env: Record<string, string>, ...args: string[]): CliProcess {
  const process = new CliProcess(["serve", ...args], undefined, env);
  running.push(process);
  return process;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((process) => process.stop("SIGKILL")));
});

describe("unruffled serve", () => {
  it("serves the module's app until SIGTERM, then closes and exits 0", async () => {
    const server = serve(SHOP, "--port", "0");
    const url = await server.served();
    const response = await fetch(`${url}/items?page=2&tag=a&tag=b`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ page: 2, size: 10, tag: ["a", "b"] });
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.stderr).toBe(
      `Serving ${SHOP} on ${url} (pid ${server.child.pid})\nSIGTERM: finishing requests in flight, then exiting\n`,
    );
    expect(server.stdout).toBe("");
  });

  it("drains on SIGTERM once readiness was probed: /readyz answers 503, other routes still answer, with Connection: close", async () => {
    const server = serve(join(FIXTURES, "draining-app.ts"), "--port", "0");
    const url = await server.served();
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    server.child.kill("SIGTERM");
    await server.waitFor(/SIGTERM: finishing requests in flight, then exiting\n/);
    const readiness = await fetch(`${url}/readyz`);
    expect([readiness.status, await readiness.json()]).toEqual([
      503,
      { status: "fail", reason: "draining", checks: {} },
    ]);
    const hello = await fetch(`${url}/hello`);
    expect([hello.status, hello.headers.get("connection"), await hello.text()]).toEqual([
      200,
      "close",
      "Hello",
    ]);
    expect(server.child.exitCode).toBe(null);
  });

  it("exits 0 once the drain delay is over and the app closed", async () => {
    const server = serve(join(FIXTURES, "draining-app.ts"), "--export", "brief", "--port", "0");
    const url = await server.served();
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(await server.stop("SIGTERM")).toBe(0);
  });

  it("writes the access log to standard output with --log-level info", async () => {
    const server = serve(SHOP, "--port", "0", "--log-level", "info");
    const url = await server.served();
    await fetch(`${url}/hello?name=secret`, { headers: { "x-request-id": "cli-1" } });
    const [line] = await server.waitFor(/.*"msg":"request completed"}\n/, "stdout");
    expect(JSON.parse(line)).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: server.child.pid,
      hostname: hostname(),
      reqId: "cli-1",
      method: "GET",
      path: "/hello",
      status: 200,
      durationMs: expect.any(Number),
      client: "127.0.0.1",
      msg: "request completed",
    });
  });

  it("serves an app made by an exported factory", async () => {
    const server = serve(join(FIXTURES, "factory-app.ts"), "--export", "makeApp", "--port", "0");
    const url = await server.served();
    expect(await (await fetch(`${url}/hello`)).text()).toBe("From a factory");
  });

  it("runs several workers on one port and stops them all on SIGTERM", async () => {
    const server = serve(SHOP, "--port", "0", "--workers", "2");
    const first = await server.served(1);
    const second = await server.served(2);
    expect(second).toBe(first);
    const answers = await Promise.all(
      Array.from({ length: 4 }, async () => (await fetch(`${first}/hello`)).text()),
    );
    expect(answers).toEqual(["Hello", "Hello", "Hello", "Hello"]);
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.stderr).toMatch(/^worker 1 \(pid \d+\) started$/m);
    expect(server.stderr).toMatch(/^worker 2 \(pid \d+\) started$/m);
    expect(server.stderr).toMatch(/^SIGTERM: stopping 2 workers$/m);
    expect(server.stderr.match(/exited with code 0/g)).toHaveLength(2);
  });

  it("kills, with --workers, a worker still closing after the drain delay, the close timeout and 5 s, and exits 1", async () => {
    // The app drains for 1 s and its close never ends: the primary waits 1 + 10 + 5 s.
    const server = serve(join(FIXTURES, "stuck-close-app.ts"), "--port", "0", "--workers", "2");
    await server.served(1);
    await server.served(2);
    await server.waitFor(/^worker 2 \(pid \d+\) started$/m);
    const workers = [...server.stderr.matchAll(/^worker \d \(pid (\d+)\) started$/gm)].map((match) =>
      Number(match[1]),
    );
    const signalled = performance.now();
    expect(await server.stop("SIGTERM")).toBe(1);
    // A lower bound only: a busy machine makes the wait longer, never shorter.
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(16_000);
    const killed = [...server.stderr.matchAll(/^worker (\d+) still running after (\d+) ms; killing it$/gm)];
    expect(killed.map((match) => [Number(match[1]), match[2]]).sort()).toEqual(
      workers.map((pid) => [pid, "16000"]).sort(),
    );
    expect(server.stderr.match(/exited by SIGKILL/g)).toHaveLength(2);
  });

  it("runs onStartup in every worker with --workers, and not in the primary", async () => {
    const server = serve(join(FIXTURES, "startup-per-worker-app.ts"), "--port", "0", "--workers", "2");
    const url = await server.served(1);
    await server.served(2);
    // The primary tells a worker started once the cluster says it listens, which can come after
    // the worker's own Serving line.
    await server.waitFor(/^worker 2 \(pid \d+\) started$/m);
    const workers = [...server.stderr.matchAll(/^worker \d \(pid (\d+)\) started$/gm)].map(
      (match) => match[1],
    );
    const ran = [...server.stderr.matchAll(/^onStartup ran in pid (\d+)$/gm)].map((match) => match[1]);
    expect([workers.length, [...ran].sort(), ran.includes(String(server.child.pid))]).toEqual([
      2,
      [...workers].sort(),
      false,
    ]);
    const answer = await fetch(`${url}/who`);
    const body = (await answer.json()) as { pid: number; opened: boolean };
    expect([workers.includes(String(body.pid)), body.opened]).toEqual([true, true]);
    expect(await server.stop("SIGTERM")).toBe(0);
  });

  it("prints a definition error without a stack and exits 1, before listening", async () => {
    expect(await runCli("serve", join(FIXTURES, "bare-default-app.ts"), "--port", "0")).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'unruffled serve: ValueError: endpoint "list_items" (GET /items), parameter "page" is a bare schema with a default. Give the default with a marker: page: p.Query(z.int(), { default: … }).\n',
    });
  });

  it("tells a definition error once with several workers: the primary checks before forking", async () => {
    const outcome = await runCli("serve", join(FIXTURES, "untyped-app.ts"), "--port", "0", "--workers", "2");
    expect(outcome).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'unruffled serve: TypeHintRequired: endpoint "search" (GET /search), parameter "q" has no schema. Give its type with a marker: q: p.Query(z.string()).\n',
    });
  });

  it("says in one line that onStartup failed, without a stack, and exits 1", async () => {
    expect(await runCli("serve", join(FIXTURES, "failing-startup-app.ts"), "--port", "0")).toEqual({
      code: 1,
      stdout: "",
      stderr: "unruffled serve: onStartup failed (openDatabase): connect ECONNREFUSED 127.0.0.1:5432\n",
    });
  });

  it("says the same one line with --workers 2 when onStartup fails, and exits 1 instead of restarting", async () => {
    const outcome = await runCli(
      "serve",
      join(FIXTURES, "failing-startup-app.ts"),
      "--port",
      "0",
      "--workers",
      "2",
    );
    expect(outcome).toEqual({
      code: 1,
      stdout: "",
      stderr: "unruffled serve: onStartup failed (openDatabase): connect ECONNREFUSED 127.0.0.1:5432\n",
    });
  });

  it("says the same one line with --workers 2 when the port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    try {
      expect(await runCli("serve", SHOP, "--port", String(port), "--workers", "2")).toEqual({
        code: 1,
        stdout: "",
        stderr: `unruffled serve: Cannot listen on 127.0.0.1:${port} (EADDRINUSE); choose another --port or --host.\n`,
      });
    } finally {
      blocker.close();
    }
  });

  it("adds the stack of what onStartup threw with DEBUG", async () => {
    const outcome = await runCliWithEnv(
      { DEBUG: "1" },
      "serve",
      join(FIXTURES, "failing-startup-app.ts"),
      "--port",
      "0",
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(
      /^unruffled serve: onStartup failed \(openDatabase\): connect ECONNREFUSED 127\.0\.0\.1:5432\nError: connect ECONNREFUSED 127\.0\.0\.1:5432\n {4}at openDatabase \(.*failing-startup-app\.ts:\d+:\d+\)/,
    );
  });

  it("listens on the port PORT gives when --port is left out, on 127.0.0.1", async () => {
    const port = await freePort();
    const server = serveWithEnv({ PORT: String(port) }, SHOP);
    expect(await server.served()).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`http://127.0.0.1:${port}/hello`)).status).toBe(200);
  });

  it("says in one line when --host names no host it can resolve, without a stack", async () => {
    // .invalid never resolves (RFC 6761): the listen fails as a taken port does.
    expect(await runCli("serve", SHOP, "--host", "no-such-host.invalid", "--port", "0")).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "unruffled serve: Cannot listen on no-such-host.invalid:0 (ENOTFOUND); choose another --port or --host.\n",
    });
  });

  it("listens on 127.0.0.1:8000 when neither --port nor PORT is given", async () => {
    // Held here (or by someone else): the command's refusal names the port and host it tried.
    const saved = process.env.PORT;
    delete process.env.PORT;
    const blocker = createServer();
    const held = await new Promise<boolean>((resolve) => {
      blocker.once("error", () => resolve(false));
      blocker.listen(8000, "127.0.0.1", () => resolve(true));
    });
    try {
      expect(await runCli("serve", SHOP)).toEqual({
        code: 1,
        stdout: "",
        stderr:
          "unruffled serve: Cannot listen on 127.0.0.1:8000 (EADDRINUSE); choose another --port or --host.\n",
      });
    } finally {
      if (held) blocker.close();
      if (saved !== undefined) process.env.PORT = saved;
    }
  });

  it("names PORT, not --port, when the variable holds no port", async () => {
    expect(await runCliWithEnv({ PORT: "http" }, "serve", SHOP)).toEqual({
      code: 2,
      stdout: "",
      stderr: `PORT must be a whole number from 0 to 65535, got "http".\n${USAGE}`,
    });
  });

  it("reads an empty PORT as none given", async () => {
    const blocker = createServer();
    const held = await new Promise<boolean>((resolve) => {
      blocker.once("error", () => resolve(false));
      blocker.listen(8000, "127.0.0.1", () => resolve(true));
    });
    try {
      // 8000 held: the refusal names the default port it tried.
      expect(await runCliWithEnv({ PORT: "" }, "serve", SHOP)).toEqual({
        code: 1,
        stdout: "",
        stderr:
          "unruffled serve: Cannot listen on 127.0.0.1:8000 (EADDRINUSE); choose another --port or --host.\n",
      });
    } finally {
      if (held) blocker.close();
    }
  });

  it("takes --port over PORT", async () => {
    const port = await freePort();
    const server = serveWithEnv({ PORT: "http" }, SHOP, "--port", String(port));
    expect(await server.served()).toBe(`http://127.0.0.1:${port}`);
  });

  it("says when the port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    try {
      expect(await runCli("serve", SHOP, "--port", String(port))).toEqual({
        code: 1,
        stdout: "",
        stderr: `unruffled serve: Cannot listen on 127.0.0.1:${port} (EADDRINUSE); choose another --port or --host.\n`,
      });
    } finally {
      blocker.close();
    }
  });

  it.each([
    [["--port", "http"], '--port must be a whole number from 0 to 65535, got "http".'],
    [["--workers", "0"], '--workers must be a whole number from 1 to 1024, got "0".'],
    [
      ["--watch", "--workers", "2"],
      "--watch restarts one process for development; leave out --workers with it.",
    ],
    [
      ["--log-level", "loud"],
      '--log-level must be one of trace, debug, info, warn, error, fatal, silent, got "loud".',
    ],
  ])("refuses %j with the usage and exit code 2", async (flags, message) => {
    expect(await runCli("serve", SHOP, ...flags)).toEqual({
      code: 2,
      stdout: "",
      stderr: `${message}\n${USAGE}`,
    });
  });

  it("refuses an unknown option with Node's message and the usage", async () => {
    const outcome = await runCli("serve", SHOP, "--colour");
    expect(outcome.code).toBe(2);
    expect(outcome.stderr.startsWith("Unknown option '--colour'.")).toBe(true);
    expect(outcome.stderr.endsWith(`\n${USAGE}`)).toBe(true);
  });
});

describe("unruffled serve --watch", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "unruffled-watch-"));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  // A module outside the repository imports the framework by file URL, as no node_modules is near.
  const source = (greeting: string) => {
    const from = (entry: string) => pathToFileURL(join(FIXTURES, "../../../src", entry)).href;
    return [
      `import { createApp } from "${from("index.ts")}";`,
      `import { PlainTextResponse } from "${from("http/index.ts")}";`,
      `import { endpoint, path } from "${from("route/index.ts")}";`,
      `const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("${greeting}") });`,
      `export default createApp({ routes: [path("/hello", { endpoint: hello })] });`,
      "",
    ].join("\n");
  };

  it("restarts with the new code when the app module changes", async () => {
    const module = join(folder, "app.ts");
    await writeFile(module, source("first"));
    const server = serve(module, "--port", "0", "--watch");
    const before = await server.served(1);
    expect(await (await fetch(`${before}/hello`)).text()).toBe("first");
    await writeFile(module, source("second"));
    const after = await server.served(2);
    expect(await (await fetch(`${after}/hello`)).text()).toBe("second");
    expect(await server.stop("SIGTERM")).toBe(0);
  });

  it("writes Node's restart lines to standard error, leaving standard output to the log lines", async () => {
    const module = join(folder, "logged.ts");
    await writeFile(module, source("first"));
    const server = serve(module, "--port", "0", "--watch", "--log-level", "info");
    const before = await server.served(1);
    await fetch(`${before}/hello`);
    await server.waitFor(/"msg":"request completed"}\n/, "stdout");
    await writeFile(module, source("second"));
    const after = await server.served(2);
    await fetch(`${after}/hello`);
    await server.waitFor(/("msg":"request completed"}\n[\s\S]*){2}/, "stdout");
    expect(await server.stop("SIGTERM")).toBe(0);
    const stdout = server.stdout.split("\n").filter((line) => line !== "");
    expect(stdout.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
      "request completed",
      "request completed",
    ]);
    // Node writes both lines; the old process's own last line may come between them.
    const detected = server.stderr.indexOf(`Change detected in '${module}'\n`);
    const restarting = server.stderr.indexOf("Restarting '", detected);
    expect([detected >= 0, restarting > detected]).toEqual([true, true]);
  });
});

/** A port free on 127.0.0.1 now, which the system chose. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
