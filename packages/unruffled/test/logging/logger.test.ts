import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { waitFor } from "process-support";
import { type AppOptions, createApp, createLogger, type LoggingSettings } from "unruffled";
import { EventStreamResponse, JsonResponse, PlainTextResponse, WebBodySource } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { startServer, testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

/** A pino destination that keeps every record, parsed. */
function captured() {
  const records: Record<string, unknown>[] = [];
  return { records, destination: { write: (line: string) => void records.push(JSON.parse(line)) } };
}

const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello") });
const bind = endpoint({
  params: { body: p.Json(z.object({ student_id: z.int() })) },
  returns: JsonResponse,
  handler: (_request, { body }) => new JsonResponse(body, { status: 201 }),
});
const broken = endpoint({
  returns: JsonResponse,
  handler: () => {
    throw new Error("database is down");
  },
});
const ownId = endpoint({
  returns: PlainTextResponse,
  handler: () => new PlainTextResponse("", { headers: { "x-request-id": "upstream-7" } }),
});
const logsHeaders = endpoint({
  returns: PlainTextResponse,
  handler(request) {
    app.logger.info({ headers: request.headers }, "what the handler saw");
    return new PlainTextResponse("ok");
  },
});
const envelope = endpoint({
  returns: JsonResponse,
  handler: () => {
    const response = new JsonResponse({ code: 409, message: "taken" });
    response.logFields = { code: 409, status: 999, reqId: "forged" };
    return response;
  },
});
const routes = [
  path("/hello", { endpoint: hello }),
  path("/envelope", { endpoint: envelope }),
  path("/bind", { endpoint: bind, methods: ["POST"] }),
  path("/broken", { endpoint: broken }),
  path("/own-id", { endpoint: ownId }),
  path("/logs-headers", { endpoint: logsHeaders }),
];

function appLogging(logging: LoggingSettings, options: Omit<AppOptions, "routes"> = {}) {
  return createApp({ ...options, settings: { LOGGING: logging }, routes });
}

const log = captured();
const app = appLogging({ level: "info", destination: log.destination });
const client = testClient(app);
const base = { level: 30, time: expect.any(Number), pid: process.pid, hostname: hostname() };
const GENERATED_ID = /^[\w-]{8}-[0-9a-z]+$/;

describe("the access log", () => {
  it("writes one record per request: id, method, path without the query, status, duration", async () => {
    log.records.length = 0;
    await client.get("/hello", { query: { secret: "s3cr3t" }, headers: { "x-request-id": "req-1" } });
    expect(log.records).toEqual([
      {
        ...base,
        reqId: "req-1",
        method: "GET",
        path: "/hello",
        status: 200,
        durationMs: expect.any(Number),
        client: "127.0.0.1",
        msg: "request completed",
      },
    ]);
    expect(log.records[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("adds a response's logFields after its own fields, which they never replace", async () => {
    log.records.length = 0;
    await client.get("/envelope", { headers: { "x-request-id": "req-2" } });
    expect(log.records).toEqual([
      {
        ...base,
        reqId: "req-2",
        method: "GET",
        path: "/envelope",
        status: 200,
        durationMs: expect.any(Number),
        client: "127.0.0.1",
        code: 409,
        msg: "request completed",
      },
    ]);
  });

  it("logs the status of every outcome: a body read, a validation error, a 404, a 500", async () => {
    log.records.length = 0;
    await client.post("/bind", { json: { student_id: 1 } });
    await client.post("/bind", { json: { student_id: "x" } });
    await client.get("/missing");
    await client.get("/broken");
    const summary = log.records.map(({ level, method, path, status, msg }) => ({
      level,
      method,
      path,
      status,
      msg,
    }));
    expect(summary).toEqual([
      { level: 30, method: "POST", path: "/bind", status: 201, msg: "request completed" },
      { level: 30, method: "POST", path: "/bind", status: 422, msg: "request completed" },
      { level: 30, method: "GET", path: "/missing", status: 404, msg: "request completed" },
      {
        level: 50,
        method: "GET",
        path: "/broken",
        status: undefined,
        msg: "Unhandled error while answering a request",
      },
      { level: 30, method: "GET", path: "/broken", status: 500, msg: "request completed" },
    ]);
  });

  it("never logs bodies, cookies or the authorization header", async () => {
    log.records.length = 0;
    await client.post("/bind", {
      json: { student_id: 1 },
      headers: { authorization: "Bearer secret-token", "x-request-id": "req-2" },
      cookies: { session: "secret-session" },
    });
    expect(log.records).toEqual([
      {
        ...base,
        reqId: "req-2",
        method: "POST",
        path: "/bind",
        status: 201,
        durationMs: expect.any(Number),
        client: "127.0.0.1",
        msg: "request completed",
      },
    ]);
  });

  it("redacts authorization and cookies when a handler logs the headers itself", async () => {
    log.records.length = 0;
    await client.get("/logs-headers", {
      headers: { authorization: "Bearer secret-token" },
      cookies: { session: "secret-session" },
    });
    expect(log.records[0]).toMatchObject({
      msg: "what the handler saw",
      headers: { authorization: "[Redacted]", cookie: "[Redacted]", host: "localhost" },
    });
  });

  it("sends internal errors to the same log, with the request id and the error", async () => {
    log.records.length = 0;
    await client.get("/broken", { headers: { "x-request-id": "req-3" } });
    expect(log.records[0]).toEqual({
      ...base,
      level: 50,
      err: {
        type: "Error",
        message: "database is down",
        stack: expect.stringContaining("Error: database is down"),
      },
      reqId: "req-3",
      method: "GET",
      path: "/broken",
      msg: "Unhandled error while answering a request",
    });
  });
});

describe("request ids", () => {
  it("echoes an acceptable x-request-id", async () => {
    const id = "0b7c5a1e-9f3d-4c2a-8e11-5d6f7a8b9c0d";
    const response = await client.get("/hello", { headers: { "x-request-id": id } });
    expect(response.headers.get("x-request-id")).toBe(id);
  });

  it("keeps an x-request-id of up to 128 letters, digits and ._:+/=@- as it is", async () => {
    const ids = ["aZ09._:+/=@-".repeat(10).padEnd(128, "x"), "00-4bf92f3577b34da6a3ce929d0e0e4736-01", "x"];
    for (const id of ids) {
      log.records.length = 0;
      const response = await client.get("/hello", { headers: { "x-request-id": id } });
      expect([response.headers.get("x-request-id"), log.records[0]!.reqId]).toEqual([id, id]);
    }
    expect(ids[0]).toHaveLength(128);
  });

  it.each([
    ["too long", "a".repeat(129)],
    ["with a space", "a b"],
    ["with a quote", 'a"b'],
    ["empty", ""],
  ])("replaces an x-request-id %s with a generated one", async (_name, id) => {
    log.records.length = 0;
    const response = await client.get("/hello", { headers: { "x-request-id": id } });
    const echoed = response.headers.get("x-request-id")!;
    expect(echoed).toMatch(GENERATED_ID);
    expect(log.records[0]!.reqId).toBe(echoed);
  });

  // Straight to app.handle(): HTTP refuses a line break in a header, and so does the test client.
  it("replaces an x-request-id with a line break (only through app.handle()) with a generated one", async () => {
    log.records.length = 0;
    const request = app.createRequest({
      method: "GET",
      url: "/hello",
      headers: { host: "localhost", "x-request-id": "a\r\nx-evil: 1" },
      socket: undefined,
      body: new WebBodySource(null, null),
    });
    const response = await app.handle(request);
    const echoed = response.headers["x-request-id"] as string;
    expect([echoed, response.headers["x-evil"]]).toEqual([expect.stringMatching(GENERATED_ID), undefined]);
    expect(log.records[0]!.reqId).toBe(echoed);
  });

  it("generates a new id for every request without one", async () => {
    const ids = [];
    for (let n = 0; n < 3; n++) ids.push((await client.get("/hello")).headers.get("x-request-id")!);
    for (const id of ids) expect(id).toMatch(GENERATED_ID);
    expect(new Set(ids).size).toBe(3);
  });

  it("keeps an id the handler set itself", async () => {
    expect((await client.get("/own-id")).headers.get("x-request-id")).toBe("upstream-7");
  });

  it("echoes the id over HTTP too", async () => {
    const server = await startServer(app);
    try {
      const response = await server.fetch("/hello", { headers: { "x-request-id": "over-http" } });
      expect(response.headers.get("x-request-id")).toBe("over-http");
    } finally {
      await server.close();
    }
  });
});

describe("levels and settings", () => {
  it('defaults to "warn": no access records, errors still logged, ids still set', async () => {
    const quiet = captured();
    const quietClient = testClient(appLogging({ destination: quiet.destination }));
    const response = await quietClient.get("/hello", { headers: { "x-request-id": "req-4" } });
    await quietClient.get("/broken");
    expect(response.headers.get("x-request-id")).toBe("req-4");
    expect(quiet.records.map(({ level, msg }) => ({ level, msg }))).toEqual([
      { level: 50, msg: "Unhandled error while answering a request" },
    ]);
  });

  it('"silent" writes nothing, not even errors', async () => {
    const silent = captured();
    const silentClient = testClient(appLogging({ level: "silent", destination: silent.destination }));
    await silentClient.get("/hello");
    await silentClient.get("/broken");
    expect(silent.records).toEqual([]);
  });

  it("access_log: false keeps the errors at info level but not the request records", async () => {
    const errorsOnly = captured();
    const errorsClient = testClient(
      appLogging({ level: "info", access_log: false, destination: errorsOnly.destination }),
    );
    await errorsClient.get("/hello");
    await errorsClient.get("/broken");
    expect(errorsOnly.records.map(({ level }) => level)).toEqual([50]);
  });

  it("follows a level changed at run time", async () => {
    const changing = captured();
    const changingApp = appLogging({ level: "warn", destination: changing.destination });
    await testClient(changingApp).get("/hello");
    changingApp.logger.level = "info";
    await testClient(changingApp).get("/hello");
    expect(changing.records.map(({ path }) => path)).toEqual(["/hello"]);
  });

  it("a pino logger given as the app's logger gets the access log and the errors", async () => {
    const own = captured();
    const logger = createLogger({ level: "info", destination: own.destination });
    const ownClient = testClient(createApp({ routes, logger }));
    await ownClient.get("/hello");
    await ownClient.get("/broken");
    expect(own.records.map(({ level, status }) => ({ level, status }))).toEqual([
      { level: 30, status: 200 },
      { level: 50, status: undefined },
      { level: 30, status: 500 },
    ]);
  });

  it("an error logger of another kind gets the errors; the access log stays with LOGGING", async () => {
    const access = captured();
    const errors: [Record<string, unknown>, string][] = [];
    const errorClient = testClient(
      appLogging(
        { level: "info", destination: access.destination },
        { logger: { error: (details, message) => void errors.push([details, message]) } },
      ),
    );
    await errorClient.get("/broken", { headers: { "x-request-id": "req-5" } });
    expect(errors).toEqual([
      [
        { err: new Error("database is down"), reqId: "req-5", method: "GET", path: "/broken" },
        "Unhandled error while answering a request",
      ],
    ]);
    expect(access.records.map(({ status }) => status)).toEqual([500]);
  });

  it("appends to a file given by its path, making its folder", async () => {
    const folder = await mkdtemp(join(tmpdir(), "unruffled-log-"));
    try {
      const file = join(folder, "logs", "access.log");
      const fileApp = appLogging({ level: "info", destination: file });
      await testClient(fileApp).get("/hello", { headers: { "x-request-id": "to-file" } });
      // The file is opened and written asynchronously: wait for the line.
      let text = "";
      for (let tries = 0; tries < 200 && !text.endsWith("\n"); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        text = await readFile(file, "utf8").catch(() => "");
      }
      const records = text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(records).toEqual([
        {
          ...base,
          reqId: "to-file",
          method: "GET",
          path: "/hello",
          status: 200,
          durationMs: expect.any(Number),
          client: "127.0.0.1",
          msg: "request completed",
        },
      ]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("loads pino only once there is something to write: nothing for quiet requests, then the error", async () => {
    // A fresh process: this one has loaded pino long ago.
    const script = [
      'import { createRequire } from "node:module";',
      'import { createApp } from "unruffled";',
      'import { JsonResponse, PlainTextResponse } from "unruffled/http";',
      'import { endpoint, path } from "unruffled/route";',
      'import { testClient } from "unruffled/testing";',
      'const cache = createRequire(process.cwd() + "/").cache;',
      'const pinoLoaded = () => Object.keys(cache).some((file) => file.includes("/node_modules/pino/"));',
      'const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hi") });',
      'const broken = endpoint({ returns: JsonResponse, handler: () => { throw new Error("down"); } });',
      'const app = createApp({ routes: [path("/hello", { endpoint: hello }), path("/broken", { endpoint: broken })] });',
      "const client = testClient(app);",
      'await client.get("/hello");',
      "const quiet = pinoLoaded();",
      'await client.get("/broken");',
      "console.error(JSON.stringify({ quiet, afterError: pinoLoaded() }));",
      "process.exit(0);",
    ].join("\n");
    const root = fileURLToPath(new URL("../../../../", import.meta.url));
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--conditions=source", "--input-type=module", "-e", script],
        { cwd: root },
        (error, out, err) => (error ? reject(error) : resolve({ stdout: out, stderr: err })),
      );
    });
    expect(JSON.parse(stderr)).toEqual({ quiet: false, afterError: true });
    expect(JSON.parse(stdout)).toMatchObject({ level: 50, msg: "Unhandled error while answering a request" });
  });

  it("refuses an unknown LOGGING key or level when the app is built", () => {
    expect(() => appLogging({ levle: "info" } as LoggingSettings)).toThrow(
      'Unknown LOGGING setting "levle"; use level, destination, access_log.',
    );
    expect(() => appLogging({ level: "loud" as "info" })).toThrow(
      'The LOGGING setting "level" must be one of trace, debug, info, warn, error, fatal, silent, got "loud"',
    );
  });

  it("refuses an access_log or destination of the wrong kind when the app is built", () => {
    // "false" from an environment variable is a string: taken as is, it would keep the access log on.
    expect(() => appLogging({ access_log: "false" as unknown as boolean })).toThrow(
      'The LOGGING setting "access_log" must be true or false, got "false"',
    );
    for (const destination of [-1, 1.5, "", {}]) {
      expect(() => appLogging({ destination: destination as string })).toThrow(
        `The LOGGING setting "destination" must be a file path, a file descriptor or a pino destination (an object with write()), got ${JSON.stringify(destination)}`,
      );
    }
  });

  it("takes a file descriptor as destination: 2 is standard error", async () => {
    const script = [
      'import { createApp } from "unruffled";',
      'import { PlainTextResponse } from "unruffled/http";',
      'import { endpoint, path } from "unruffled/route";',
      'import { testClient } from "unruffled/testing";',
      'const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hi") });',
      'const app = createApp({ settings: { LOGGING: { level: "info", destination: 2 } }, routes: [path("/hello", { endpoint: hello })] });',
      'await testClient(app).get("/hello", { headers: { "x-request-id": "to-fd-2" } });',
    ].join("\n");
    const root = fileURLToPath(new URL("../../../../", import.meta.url));
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--conditions=source", "--input-type=module", "-e", script],
        { cwd: root },
        (error, out, err) => (error ? reject(error) : resolve({ stdout: out, stderr: err })),
      );
    });
    expect(stdout).toBe("");
    expect(JSON.parse(stderr)).toMatchObject({ reqId: "to-fd-2", path: "/hello", status: 200 });
  });
});

describe("what the page promises of records and ids", () => {
  it("redacts set-cookie when a handler logs an answer's headers itself", async () => {
    const own = captured();
    const ownApp = appLogging({ level: "info", destination: own.destination });
    ownApp.logger.info({ headers: { "set-cookie": "session=secret", "content-type": "text/plain" } }, "sent");
    expect(own.records).toEqual([
      { ...base, headers: { "set-cookie": "[Redacted]", "content-type": "text/plain" }, msg: "sent" },
    ]);
  });

  it("access_log: false still echoes a client's id and gives a new one to a request without", async () => {
    const none = captured();
    const noAccessClient = testClient(
      appLogging({ level: "info", access_log: false, destination: none.destination }),
    );
    const kept = await noAccessClient.get("/hello", { headers: { "x-request-id": "req-6" } });
    const made = await noAccessClient.get("/hello");
    expect([kept.headers.get("x-request-id"), none.records]).toEqual(["req-6", []]);
    expect(made.headers.get("x-request-id")).toMatch(GENERATED_ID);
  });

  it("logs an answer its model refuses as a ResponseValidationError with endpoint, status and the field's path", async () => {
    const refused = captured();
    const page = endpoint({
      returns: [p.ResponseSpec({ model: z.object({ email: z.email() }) })],
      handler: () => new JsonResponse({ email: "not an address" }),
    });
    const strictApp = createApp({
      settings: { RESPONSES: { validate: "strict" }, LOGGING: { destination: refused.destination } },
      routes: [path("/page", { endpoint: page, name: "page" })],
    });
    const response = await testClient(strictApp).get("/page", { headers: { "x-request-id": "req-8" } });
    expect([response.status, response.json()]).toEqual([500, { detail: "Internal Server Error" }]);
    expect(refused.records).toEqual([
      {
        ...base,
        level: 50,
        err: {
          type: "ResponseValidationError",
          name: "ResponseValidationError",
          message:
            'endpoint "page" (GET /page) answered 200 with a body that its model refuses: email: Invalid email address',
          stack: expect.stringContaining("ResponseValidationError"),
          endpoint: 'endpoint "page" (GET /page)',
          status: 200,
          path: "email",
        },
        reqId: "req-8",
        method: "GET",
        path: "/page",
        msg: "Unhandled error while answering a request",
      },
    ]);
  });

  it("logs an event stream that fails once its answer began with err, reqId, method and path, and closes it", async () => {
    const streamLog = captured();
    const failing = endpoint({
      returns: EventStreamResponse,
      handler: () =>
        new EventStreamResponse(
          (async function* () {
            yield { data: { n: 1 } };
            throw new Error("the feed went away");
          })(),
        ),
    });
    const streamApp = createApp({
      settings: { LOGGING: { level: "warn", destination: streamLog.destination } },
      routes: [path("/feed", { endpoint: failing })],
    });
    const server = await startServer(streamApp);
    try {
      const response = await server.fetch("/feed?since=3", { headers: { "x-request-id": "req-7" } });
      expect(response.status).toBe(200);
      // The stream never ends properly: its connection is closed, so reading to the end fails.
      await expect(response.text()).rejects.toThrow();
      const record = await waitFor("the stream's error record", () => streamLog.records[0]);
      expect(record).toEqual({
        ...base,
        level: 50,
        err: {
          type: "Error",
          message: "the feed went away",
          stack: expect.stringContaining("the feed went away"),
        },
        reqId: "req-7",
        method: "GET",
        path: "/feed",
        msg: "An event stream failed after its answer began; its connection was closed",
      });
    } finally {
      await server.close();
    }
  });
});

describe("audit-b: a logger given to the app", () => {
  it("keeps its own level and destination: the app's LOGGING does not change them", async () => {
    const own = captured();
    const fromSettings = captured();
    const logger = createLogger({ level: "info", destination: own.destination });
    const ownApp = createApp({
      routes,
      logger,
      settings: { LOGGING: { level: "silent", destination: fromSettings.destination } },
    });
    await testClient(ownApp).get("/hello", { headers: { "x-request-id": "req-own" } });
    expect([ownApp.logger === logger, logger.level]).toEqual([true, "info"]);
    expect(own.records.map(({ reqId, status, msg }) => [reqId, status, msg])).toEqual([
      ["req-own", 200, "request completed"],
    ]);
    expect(fromSettings.records).toEqual([]);
  });

  it("of another kind gets the record of an event stream that fails once its answer began", async () => {
    const errors: [Record<string, unknown>, string][] = [];
    const failing = endpoint({
      returns: EventStreamResponse,
      handler: () =>
        new EventStreamResponse(
          (async function* () {
            yield { data: { n: 1 } };
            throw new Error("the feed went away");
          })(),
        ),
    });
    const streamApp = createApp({
      logger: { error: (details, message) => void errors.push([details, message]) },
      routes: [path("/feed", { endpoint: failing })],
    });
    const server = await startServer(streamApp);
    try {
      const response = await server.fetch("/feed?since=3", { headers: { "x-request-id": "req-8" } });
      expect(response.status).toBe(200);
      await expect(response.text()).rejects.toThrow();
      await waitFor("the stream's error record", () => errors[0]);
      expect(errors).toEqual([
        [
          { err: new Error("the feed went away"), reqId: "req-8", method: "GET", path: "/feed" },
          "An event stream failed after its answer began; its connection was closed",
        ],
      ]);
    } finally {
      await server.close();
    }
  });
});
