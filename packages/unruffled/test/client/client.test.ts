// The generated client against a running app: every place a value goes, every kind of answer.
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { waitFor } from "process-support";
import { createApp } from "unruffled";
import { EventStreamResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { generateClient } from "../../src/client-generator/index.ts";
import { type Client, createClient } from "./fixture-client.generated.ts";
import { clientFixtureApp } from "./fixture-client-app.ts";

let server: RunningServer;
let client: Client;
beforeAll(async () => {
  server = await startServer(clientFixtureApp());
  client = createClient({ baseUrl: server.url });
});
afterAll(async () => {
  await server?.close();
});

it("is the client the fixture app generates now", async () => {
  const onDisk = await readFile(new URL("./fixture-client.generated.ts", import.meta.url), "utf8");
  expect(onDisk).toBe(generateClient(clientFixtureApp()));
});

describe("placing each value where the endpoint reads it", () => {
  it("fills the path, repeats a query list, spreads a query model, and sends headers and cookies", async () => {
    const result = await client.search({
      school: "north side/ö",
      page: 2,
      tag: ["a", "b c"],
      filter: { name: "Ada", active: false },
      trace: "t-1",
      accept_kinds: ["x", "y"],
      session: "s; 1",
    });
    expect(result.kind).toBe("documented");
    if (result.kind !== "documented" || result.status !== 200) throw new Error("not a 200");
    expect(result.body).toEqual({
      school: "north side/ö",
      page: 2,
      tag: ["a", "b c"],
      filter: { name: "Ada", active: false },
      trace: "t-1",
      accept_kinds: ["x", "y"],
      session: "s; 1",
    });
  });

  it("leaves out what is not given, so the server's defaults apply", async () => {
    const result = await client.search({ school: "s", filter: {} });
    expect(result).toMatchObject({
      kind: "documented",
      status: 200,
      body: { school: "s", page: 1, tag: [], filter: { active: true }, accept_kinds: [] },
    });
  });

  it("sends a whole-body JSON model, and reads dates as the strings they are on the wire", async () => {
    const result = await client.create_student({ student: { name: "Grace" } });
    expect(result).toMatchObject({
      kind: "documented",
      status: 201,
      contentType: "application/json",
      body: { id: 2, name: "Grace", nickname: null, joined: "2025-01-01T00:00:00.000Z" },
    });
  });

  it("sends a JSON model beside a JSON scalar as one object", async () => {
    const result = await client.enrol({ pair: { student_id: 1, course_id: 2 }, note: "late" });
    expect(result).toMatchObject({
      status: 200,
      body: { pair: { student_id: 1, course_id: 2 }, note: "late" },
    });
  });

  it("sends a form under the wire names, a list as repeated names", async () => {
    const result = await client.sign_up({
      person: { name: "Ada", email: "ada@example.org" },
      topics: ["maths", "engines"],
    });
    expect(result).toMatchObject({
      status: 200,
      body: { person: { name: "Ada", email: "ada@example.org" }, topics: ["maths", "engines"] },
    });
  });

  it("uploads Blobs and Files in multipart", async () => {
    const result = await client.upload({
      avatar: new File(["png!"], "face.png", { type: "image/png" }),
      attachments: [new File(["a"], "a.txt"), new File(["bb"], "b.txt")],
      title: "Report",
    });
    expect(result).toMatchObject({
      kind: "documented",
      status: 200,
      contentType: "text/plain",
      body: "Report: face.png=4, a.txt=1, b.txt=2",
    });
  });

  it("sends a Date in a JSON body and in the query as its ISO string, which the server reads as a Date", async () => {
    const result = await client.schedule({
      meeting: {
        title: "Review",
        starts: new Date("2026-03-02T09:30:00.000Z"),
        reminders: ["2026-03-01T09:30:00+01:00"],
      },
      after: new Date("2026-01-01T00:00:00.000Z"),
    });
    expect(result).toMatchObject({
      kind: "documented",
      status: 200,
      body: {
        title: "Review",
        starts: "2026-03-02T09:30:00.000Z",
        reminders: ["2026-03-01T08:30:00.000Z"],
        weekday: 1,
        after: "2026-01-01T00:00:00.000Z",
      },
    });
  });

  it("gets a 422 for a date that is not an RFC 3339 date-time with an offset", async () => {
    const result = await client.schedule({ meeting: { title: "Review", starts: "2026-03-02T09:30" } });
    expect(result).toMatchObject({
      kind: "documented",
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "starts"],
            msg: "Invalid input: expected date, received string",
            type: "invalid_type",
            input: "2026-03-02T09:30",
          },
        ],
      },
    });
  });

  it("leaves out a query model whose fields may all be left out", async () => {
    const result = await client.search({ school: "s" });
    expect(result).toMatchObject({ status: 200, body: { school: "s", filter: { active: true } } });
  });

  it("uploads a required list of files", async () => {
    const result = await client.upload_many({ files: [new File(["a"], "a.txt"), new File(["b"], "b.txt")] });
    expect(result).toMatchObject({ status: 200, body: "a.txt, b.txt" });
  });

  it("sends default headers and a call's own", async () => {
    const reader = createClient({
      baseUrl: `${server.url}/`,
      headers: () => ({ Authorization: "Bearer reader" }),
    });
    expect(await reader.admin_only()).toMatchObject({
      kind: "documented",
      status: 403,
      body: { detail: "Not enough permissions: the scope admin is required" },
    });
    const admin = await reader.admin_only({}, { headers: { authorization: "Bearer admin" } });
    expect(admin).toMatchObject({ kind: "documented", status: 200, body: { ok: true } });
  });
  it("calls a headers function for every request, so that a token may change between calls", async () => {
    const tokens = ["Bearer reader", "Bearer admin"];
    const rotating = createClient({
      baseUrl: server.url,
      headers: () => ({ authorization: tokens.shift()! }),
    });
    expect(await rotating.admin_only()).toMatchObject({ kind: "documented", status: 403 });
    expect(await rotating.admin_only()).toMatchObject({
      kind: "documented",
      status: 200,
      body: { ok: true },
    });
    expect(tokens).toEqual([]);
  });

  it("hands its credentials option to fetch with every request", async () => {
    const seen: RequestInit["credentials"][] = [];
    const browserLike = createClient({
      baseUrl: server.url,
      credentials: "include",
      fetch: (url, init) => {
        seen.push(init.credentials);
        return fetch(url, init);
      },
    });
    expect(await browserLike.get_student({ student_id: 1 })).toMatchObject({
      kind: "documented",
      status: 200,
    });
    expect(seen).toEqual(["include"]);
  });
});

describe("every answer is a branch", () => {
  it("types a documented error status: 404, the validation error 422, a scheme's 401", async () => {
    const missing = await client.get_student({ student_id: 7 });
    expect(missing).toMatchObject({ kind: "documented", status: 404, body: { detail: "No student 7" } });
    const invalid = await client.get_student({ student_id: 0 });
    if (invalid.kind !== "documented" || invalid.status !== 422) throw new Error("not a 422");
    expect(invalid.body.detail[0]).toMatchObject({ loc: ["path", "student_id"], type: "too_small" });
    const anonymous = await client.admin_only();
    expect(anonymous).toMatchObject({
      kind: "documented",
      status: 401,
      body: { detail: "Not authenticated: send the header Authorization: Bearer <token>" },
    });
  });

  it("types the limits' 413 of a body-reading operation", async () => {
    const small = await startServer(clientFixtureApp({ settings: { LIMITS: { body_size: 64 } } }));
    try {
      const result = await createClient({ baseUrl: small.url }).create_student({
        student: { name: "x".repeat(200) },
      });
      if (result.kind !== "documented" || result.status !== 413) throw new Error("not a 413");
      expect(result.body).toEqual({ detail: "Request body is larger than the limit of 64 bytes" });
    } finally {
      await small.close();
    }
  });

  it("gives an undocumented status as unknown, never an exception", async () => {
    const result = await client.get_misbehave({ how: "teapot" });
    expect(result).toMatchObject({ kind: "undocumented", status: 418, body: { short: "and stout" } });
  });

  it("gives an undocumented answer that is not JSON as its text", async () => {
    const teapot = endpoint({
      returns: PlainTextResponse,
      handler: () => new PlainTextResponse("short and stout", { status: 418 }),
    });
    const other = await startServer(createApp({ routes: [path("/misbehave", { endpoint: teapot })] }));
    try {
      expect(await createClient({ baseUrl: other.url }).get_misbehave({ how: "teapot" })).toMatchObject({
        kind: "undocumented",
        status: 418,
        contentType: "text/plain",
        body: "short and stout",
      });
    } finally {
      await other.close();
    }
  });

  it("gives a documented status whose body is not JSON, or not the documented type, as a decode failure", async () => {
    expect(await client.get_misbehave({ how: "broken-json" })).toMatchObject({
      kind: "decode-failure",
      status: 200,
      contentType: "application/json",
      text: "{not json",
      message: "The 200 answer is not JSON, as its content type application/json says.",
    });
    expect(await client.get_misbehave({ how: "html" })).toMatchObject({
      kind: "decode-failure",
      status: 200,
      contentType: "text/html",
      text: "<p>hi</p>",
      message: "The 200 answer is text/html, not application/json as documented.",
    });
  });

  it("gives a refused connection as a network failure", async () => {
    const port = await closedPort();
    const offline = createClient({ baseUrl: `http://127.0.0.1:${port}` });
    const result = await offline.get_student({ student_id: 1 });
    expect(result).toMatchObject({ kind: "network-failure", aborted: false });
    if (result.kind === "network-failure") expect(result.message).toMatch(/^The request failed: /);
  });

  /** A client whose every request is recorded before it is sent: a refusal must leave `seen` empty. */
  function watchedClient() {
    const seen: string[] = [];
    const watched = createClient({
      baseUrl: server.url,
      fetch: (url, init) => {
        seen.push(url);
        return fetch(url, init);
      },
    });
    return { watched, seen };
  }

  it("gives a path value holding a lone UTF-16 surrogate as a failure that names the parameter, sending nothing", async () => {
    const { watched, seen } = watchedClient();
    const result = await watched.search({ school: "north\uD800", filter: {} });
    expect(result).toMatchObject({
      kind: "network-failure",
      aborted: false,
      message:
        "The request failed: the path parameter school holds a lone UTF-16 surrogate (\\ud800, character 6), which has no UTF-8 form, so no URL can carry it",
    });
    expect(seen).toEqual([]);
  });

  it("gives a query, header, cookie or form value holding a lone UTF-16 surrogate as a failure that names it and its place, sending nothing", async () => {
    const { watched, seen } = watchedClient();
    const lone = "holds a lone UTF-16 surrogate (\\ud800, character 2), which has no UTF-8 form, so";
    const calls: [() => Promise<unknown>, string][] = [
      [
        () => watched.search({ school: "s", tag: ["ok", "a\uD800"], filter: {} }),
        `the query parameter tag ${lone} no URL can carry it`,
      ],
      [
        () => watched.search({ school: "s", filter: { name: "a\uD800" } }),
        `the query parameter name ${lone} no URL can carry it`,
      ],
      [
        () => watched.search({ school: "s", filter: {}, trace: "a\uD800" }),
        `the header parameter x-trace-id ${lone} no header can carry it`,
      ],
      [
        () => watched.search({ school: "s", filter: {}, session: "a\uD800" }),
        `the cookie parameter session ${lone} no header can carry it`,
      ],
      [
        () => watched.sign_up({ person: { name: "a\uD800", email: "ada@example.org" }, topics: [] }),
        `the form parameter name ${lone} no form can carry it`,
      ],
      [
        () => watched.upload({ avatar: new File(["png!"], "face.png"), attachments: [], title: "a\uD800" }),
        `the form parameter title ${lone} no form can carry it`,
      ],
    ];
    for (const [call, reason] of calls) {
      expect(await call()).toMatchObject({
        kind: "network-failure",
        aborted: false,
        message: `The request failed: ${reason}`,
      });
    }
    expect(seen).toEqual([]);
  });

  it("gives an aborted call as a network failure that says so", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await client.get_student({ student_id: 1 }, { signal: controller.signal });
    expect(result).toMatchObject({
      kind: "network-failure",
      aborted: true,
      message: "The call was aborted.",
    });
  });

  it("calls the fetch it is given", async () => {
    const seen: string[] = [];
    const traced = createClient({
      baseUrl: server.url,
      fetch: (url, init) => {
        seen.push(`${init.method} ${url.slice(server.url.length)}`);
        return fetch(url, init);
      },
    });
    await traced.get_student({ student_id: 1 });
    expect(seen).toEqual(["GET /students/1"]);
  });
});

describe("event streams", () => {
  it("reads typed events until the call's signal ends the stream", async () => {
    const controller = new AbortController();
    const result = await client.ticks({ from: 5 }, { signal: controller.signal });
    if (result.kind !== "documented" || result.status !== 200 || result.contentType !== "text/event-stream") {
      throw new Error("not an event stream");
    }
    const seen: number[] = [];
    for await (const event of result.events) {
      seen.push(event.data.n);
      expect(event.id).toBe(String(event.data.n));
      if (seen.length === 3) controller.abort();
    }
    expect(seen).toEqual([5, 6, 7]);
  });

  it("ends the stream when the loop breaks", async () => {
    const result = await client.ticks();
    if (result.kind !== "documented" || result.status !== 200 || result.contentType !== "text/event-stream") {
      throw new Error("not an event stream");
    }
    for await (const event of result.events) {
      expect(event.data).toEqual({ n: 0 });
      break;
    }
  });
});

describe("event streams end their request", () => {
  it("closes the request on the server when the loop breaks, and when the call's signal aborts", async () => {
    const closed: string[] = [];
    const endless = endpoint({
      params: { from: p.Query(z.int(), { default: 0 }) },
      returns: [p.ResponseSpec({ model: z.object({ n: z.int() }), content_type: "text/event-stream" })],
      handler: (_request, { from }) =>
        new EventStreamResponse(
          (async function* () {
            try {
              for (let n = from; ; n++) {
                yield { data: { n }, id: String(n) };
                await new Promise((resolve) => setTimeout(resolve, 20));
              }
            } finally {
              closed.push(`from ${from}`);
            }
          })(),
        ),
    });
    const other = await startServer(createApp({ routes: [path("/ticks", { endpoint: endless })] }));
    try {
      const streams = createClient({ baseUrl: other.url });
      const broken = await streams.ticks({ from: 1 });
      if (broken.kind !== "documented" || broken.contentType !== "text/event-stream")
        throw new Error("no stream");
      for await (const event of broken.events) {
        expect(event.data).toEqual({ n: 1 });
        break;
      }
      await waitFor("the source closed after break", () => (closed.includes("from 1") ? true : undefined));
      const controller = new AbortController();
      const aborted = await streams.ticks({ from: 100 }, { signal: controller.signal });
      if (aborted.kind !== "documented" || aborted.contentType !== "text/event-stream")
        throw new Error("no stream");
      const seen: number[] = [];
      for await (const event of aborted.events) {
        seen.push(event.data.n);
        if (seen.length === 2) controller.abort();
      }
      expect(seen).toEqual([100, 101]);
      await waitFor("the source closed after abort", () => (closed.includes("from 100") ? true : undefined));
      expect(closed).toEqual(["from 1", "from 100"]);
    } finally {
      await other.close();
    }
  });
});

// Never called: what the generated types refuse.
export function refusedByTheTypes() {
  // @ts-expect-error student_id is an integer
  void client.get_student({ student_id: "one" });
  // @ts-expect-error the path parameter is required
  void client.search({ filter: {} });
  // @ts-expect-error avatar is a Blob
  void client.upload({ avatar: "face.png", title: "x" });
  // @ts-expect-error no such operation
  void client.delete_student({ student_id: 1 });
  // @ts-expect-error a required list of files holds one at least: the server answers 422 for none
  void client.upload_many({ files: [] });
  // @ts-expect-error a date is a Date or its ISO string
  void client.schedule({ meeting: { title: "x", starts: 1 } });
  void (async () => {
    const result = await client.schedule({ meeting: { title: "x", starts: new Date() } });
    if (result.kind === "documented" && result.status === 200) {
      const starts: string = result.body.starts;
      // @ts-expect-error an answer's date is the string it is on the wire
      void result.body.starts.getFullYear();
      void starts;
    }
  })();
  void (async () => {
    const result = await client.get_student({ student_id: 1 });
    if (result.kind === "documented" && result.status === 200) {
      const name: string = result.body.name;
      // @ts-expect-error a 200's body has no detail
      void result.body.detail;
      void name;
    }
    if (result.kind === "undocumented") {
      // @ts-expect-error an undocumented body is unknown
      void result.body.anything;
    }
  })();
}

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
