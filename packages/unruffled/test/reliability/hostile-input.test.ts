import { connect } from "node:net";
import fc from "fast-check";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostileApp } from "./hostile-app.ts";
import { hostileRequests } from "./hostile-requests.ts";
import { type RawAnswer, rawRequest, sendRaw } from "./send-raw.ts";

// Every answer a hostile request may get: success, or a documented client error. Never a 5xx.
const CLIENT_ANSWERS = new Set([200, 400, 404, 405, 413, 415, 422, 431]);
// Modest run counts keep each property to a second or two.
const runs = { numRuns: 150 };

const prototypeNames = () => ({
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
  function: Object.getOwnPropertyNames(Function.prototype).sort(),
});
const before = prototypeNames();

const { app, errors } = createHostileApp();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer(app);
});
afterAll(async () => {
  await server.close();
});

/** Sends the request and checks the answer is a success or a documented client error. */
async function expectClientAnswer(request: Buffer): Promise<RawAnswer> {
  const answer = await sendRaw(server.port, request);
  expect(answer, "the server closed the connection without answering").toBeDefined();
  expect(
    CLIENT_ANSWERS,
    `status ${answer!.status} for ${request.subarray(0, 300).toString("latin1")}`,
  ).toContain(answer!.status);
  // Every answer is JSON: the framework's own, and Node's refusals of what it cannot read (400, 431).
  expect(() => JSON.parse(answer!.body.toString("utf8"))).not.toThrow();
  return answer!;
}

describe("hostile input never hurts the framework", () => {
  for (const [name, property] of hostileRequests) {
    it(name, async () => {
      await fc.assert(property(expectClientAnswer), runs);
    });
  }

  it("a client that leaves in the middle of its body does not hurt the next one", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/json", "/form", "/upload"),
        fc.uint8Array({ maxLength: 200 }),
        async (route, sent) => {
          const head = `POST ${route} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n`;
          const request = Buffer.concat([Buffer.from(head), Buffer.from(sent)]);
          await new Promise<void>((resolve) => {
            const socket = connect(server.port, "127.0.0.1");
            socket.on("error", () => {});
            socket.write(request, () => {
              socket.destroy();
              resolve();
            });
          });
          const answer = await expectClientAnswer(rawRequest("GET", "/items/1", {}));
          expect(answer.status).toBe(200);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("nothing reached the 500 fallback, and the prototypes are untouched", () => {
    expect(errors).toEqual([]);
    expect(prototypeNames()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });
});
