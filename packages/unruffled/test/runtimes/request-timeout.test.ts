// LIMITS.request_timeout against a client that sends its request head, then part of its body, then
// stalls: on Node and on Deno (`unruffled serve`, each in a process of its own), a body the app reads
// that has not arrived within request_timeout of the request's arrival is answered 408 in the app's
// error format with `Connection: close`, the handler's pending read ends, and nothing is left behind.
// No pass condition depends on the machine's speed: each wait is for an answer or a state, bounded
// only by a generous overall timeout.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { endProcessGroups } from "process-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRaw, type RawExchange } from "../support/raw-http.ts";
import { type RuntimeName, type ServedApp, serveOn } from "./runtime-process.ts";

const fixture = fileURLToPath(new URL("./late-body-fixture-app.ts", import.meta.url));
const LONG = 30_000;
const LATE = "The request did not arrive in time";
const MULTIPART = "multipart/form-data; boundary=b";

afterAll(endProcessGroups);

interface ServerState {
  errors: string[];
  pendingReads: number;
  readOutcomes: string[];
  signalsAborted: number;
  timers: number;
}

interface Answer {
  status: number;
  /** The head's lines after the status line, as [name in lower case, value]. */
  headers: [string, string][];
  body: string;
}

/** The first whole answer on the exchange (head and Content-Length bytes), once it has arrived. */
async function answerOn(exchange: RawExchange): Promise<Answer> {
  const whole = () => {
    const raw = exchange.received();
    const end = raw.indexOf("\r\n\r\n");
    if (end < 0) return undefined;
    const lines = raw.slice(0, end).split("\r\n");
    const headers = lines.slice(1).map((line): [string, string] => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    });
    const length = Number(headers.find(([name]) => name === "content-length")?.[1]);
    const body = raw.slice(end + 4);
    if (Buffer.byteLength(body, "latin1") < length) return undefined;
    return { status: Number(lines[0]!.slice(9, 12)), headers, body: body.slice(0, length) };
  };
  await expect.poll(() => whole() !== undefined, { timeout: LONG, interval: 20 }).toBe(true);
  return whole()!;
}

/** Sends a request head announcing `length` bytes of body, and only `sent` of them. */
async function stall(port: number, route: string, type: string, sent: string, length = 1000) {
  const exchange = await openRaw(port);
  await exchange.write(
    `POST ${route} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n${sent}`,
  );
  return exchange;
}

const header = (answer: Answer, name: string) =>
  answer.headers.filter(([key]) => key === name).map(([, value]) => value);

/** The 408 as Node's server answers it (server/client-errors.ts): the same headers, once each. */
function expectLateAnswer(answer: Answer, body: unknown) {
  expect([answer.status, JSON.parse(answer.body)]).toEqual([408, body]);
  expect({
    "content-type": header(answer, "content-type"),
    "content-length": header(answer, "content-length"),
    connection: header(answer, "connection"),
    "x-request-id": header(answer, "x-request-id").length,
  }).toEqual({
    "content-type": [
      (body as { status?: number }).status === undefined ? "application/json" : "application/problem+json",
    ],
    "content-length": [String(Buffer.byteLength(answer.body))],
    connection: ["close"],
    "x-request-id": 1,
  });
}

const partialUpload =
  '--b\r\nContent-Disposition: form-data; name="comment"\r\n\r\nhi\r\n--b\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc';

describe.each(["node", "deno"] as const satisfies readonly RuntimeName[])("on %s", (runtime) => {
  let served: ServedApp;
  let baseline: { descriptors: number; timers: number };
  const descriptors = () => readdirSync(`/proc/${served.child.pid}/fd`).length;
  const state = async () => (await (await fetch(`${served.origin}/state`)).json()) as ServerState;
  const post = (target: string, type: string, body: string) =>
    fetch(`${served.origin}${target}`, { method: "POST", headers: { "content-type": type }, body });

  beforeAll(async () => {
    served = await serveOn(runtime, fixture);
    // A request of each kind first, so that what the runtime opens once is in the baseline.
    await post("/json", "application/json", '{"name":"a"}');
    await post("/raw", "application/octet-stream", "abc");
    baseline = { descriptors: descriptors(), timers: (await state()).timers };
  }, 60_000);

  it("answers a JSON body that stalls past request_timeout with 408 in the app's format, not through its exception handlers", {
    timeout: 2 * LONG,
  }, async () => {
    const exchange = await stall(served.port, "/json", "application/json", '{"name":');
    expectLateAnswer(await answerOn(exchange), { detail: LATE });
    exchange.socket.destroy();
  });

  it("answers a chunked JSON body (no Content-Length) that stalls past request_timeout with 408", {
    timeout: 2 * LONG,
  }, async () => {
    const exchange = await openRaw(served.port);
    await exchange.write(
      'POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n{"name":\r\n',
    );
    expectLateAnswer(await answerOn(exchange), { detail: LATE });
    exchange.socket.destroy();
  });

  it("answers a multipart upload that stalls past request_timeout with 408", {
    timeout: 2 * LONG,
  }, async () => {
    const exchange = await stall(served.port, "/upload", MULTIPART, partialUpload);
    expectLateAnswer(await answerOn(exchange), { detail: LATE });
    exchange.socket.destroy();
  });

  it("ends a handler's own pending read of the body (request.body()) and aborts request.signal when it answers 408", {
    timeout: 2 * LONG,
  }, async () => {
    const { signalsAborted } = await state();
    const exchange = await stall(served.port, "/raw", "application/octet-stream", "half of it");
    expectLateAnswer(await answerOn(exchange), { detail: LATE });
    // The read ended while the client is still connected: the timeout ended it, not the client leaving.
    await expect.poll(async () => (await state()).pendingReads, { timeout: LONG }).toBe(0);
    expect((await state()).readOutcomes.at(-1)).toBe("ClientAbortedError");
    await expect.poll(async () => (await state()).signalsAborted, { timeout: LONG }).toBe(signalsAborted + 1);
    exchange.socket.destroy();
  });

  it("serves a body that arrives in time, in two pieces", async () => {
    const body = '{"name":"in time"}';
    const exchange = await openRaw(served.port);
    await exchange.write(
      `POST /json HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await exchange.write(body.slice(5));
    const answer = await answerOn(exchange);
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { person: { name: "in time" } }]);
    exchange.socket.destroy();
  });

  it("does not count the handler's own time after the body: a slow answer to a quick body is 200", async () => {
    const response = await post("/slow?ms=1000", "application/json", '{"name":"slow"}');
    expect([response.status, await response.json()]).toEqual([
      200,
      { person: { name: "slow" }, waited: 1000 },
    ]);
  });

  it("leaves nothing behind after 50 stalled bodies and 150 served ones: descriptors, timers, errors", {
    timeout: 4 * LONG,
  }, async () => {
    const kinds: [string, string, string][] = [
      ["/json", "application/json", '{"name":'],
      ["/upload", MULTIPART, partialUpload],
      ["/raw", "application/octet-stream", "half"],
    ];
    const stalled = await Promise.all(
      Array.from({ length: 50 }, (_, index) => {
        const [route, type, sent] = kinds[index % kinds.length]!;
        return stall(served.port, route, type, sent);
      }),
    );
    const answers = await Promise.all(stalled.map(answerOn));
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(408));
    for (const exchange of stalled) exchange.socket.destroy();
    for (let round = 0; round < 50; round++) {
      const served = await Promise.all([
        post("/json", "application/json", `{"name":"n${round}"}`),
        post("/raw", "application/octet-stream", "abc"),
        post("/upload", MULTIPART, `${partialUpload}\r\n--b--\r\n`),
      ]);
      expect(served.map((response) => response.status)).toEqual([200, 200, 200]);
      await Promise.all(served.map((response) => response.arrayBuffer()));
    }
    await expect
      .poll(descriptors, { timeout: LONG, interval: 200 })
      .toBeLessThanOrEqual(baseline.descriptors);
    await expect
      .poll(async () => (await state()).timers, { timeout: LONG })
      .toBeLessThanOrEqual(baseline.timers);
    expect(await state()).toMatchObject({ errors: [], pendingReads: 0 });
    expect(served.output.stderr).not.toMatch(/unhandled|uncaught|error/i);
  });

  it("answers the late body as problem details under ERRORS.format problem, its id as the instance", {
    timeout: 2 * LONG,
  }, async () => {
    const problems = await serveOn(runtime, fixture, { ERRORS_FORMAT: "problem" });
    const exchange = await stall(problems.port, "/json", "application/json", '{"name":');
    const answer = await answerOn(exchange);
    expectLateAnswer(answer, {
      type: "about:blank",
      title: "Request Timeout",
      status: 408,
      detail: LATE,
      instance: header(answer, "x-request-id")[0],
    });
    exchange.socket.destroy();
  });
});
