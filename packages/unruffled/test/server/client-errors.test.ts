// What Node's parser refuses before any request exists (server/client-errors.ts): answered with
// Node's status, in the app's error format, with an id, and the connection closed.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp, exceptionHandler, RequestTimeoutError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { bodyOf, openRaw, statusOf } from "../support/raw-http.ts";
import { serveEndpoint } from "../support/serve.ts";

const hello = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ hello: "world" }) });

/** The raw answer to `bytes` sent on a fresh connection, once the server closed it. */
async function answerTo(port: number, bytes: string): Promise<string> {
  const exchange = await openRaw(port);
  await exchange.write(bytes);
  return exchange.closed(5_000);
}

const headerOf = (raw: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, "im").exec(raw.slice(0, raw.indexOf("\r\n\r\n")))?.[1];

describe("a request Node cannot read", () => {
  it("is answered 400 with the parser's words as the detail, in the default format", async () => {
    const server = await serveEndpoint("/hello", hello);
    const raw = await answerTo(server.port, "GET /hello HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n");
    expect([statusOf(raw), headerOf(raw, "content-type"), headerOf(raw, "connection")]).toEqual([
      400,
      "application/json",
      "close",
    ]);
    expect(JSON.parse(bodyOf(raw))).toEqual({ detail: "Malformed HTTP request: Invalid header token" });
  });

  it("is logged at info as a refused request: its id, status, client and the parser's code", async () => {
    const records: Record<string, unknown>[] = [];
    const server = await serveEndpoint("/hello", hello, ["GET"], {
      settings: {
        LOGGING: {
          level: "info",
          destination: { write: (line: string) => void records.push(JSON.parse(line)) },
        },
      },
    });
    const raw = await answerTo(server.port, "GET /hello HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n");
    const refused = records.filter((record) => record.msg === "request refused");
    expect(
      refused.map(({ reqId, status, client, reason, level }) => ({ reqId, status, client, reason, level })),
    ).toEqual([
      {
        reqId: headerOf(raw, "x-request-id"),
        status: 400,
        client: "127.0.0.1",
        reason: "HPE_INVALID_HEADER_TOKEN",
        level: 30,
      },
    ]);
  });

  it("is answered as problem details under ERRORS.format problem, its id as the instance", async () => {
    const server = await serveEndpoint("/hello", hello, ["GET"], {
      settings: { ERRORS: { format: "problem" } },
    });
    const raw = await answerTo(server.port, "BREW /hello HTCPCP/1.0\r\n\r\n");
    expect(headerOf(raw, "content-type")).toBe("application/problem+json");
    expect(JSON.parse(bodyOf(raw))).toEqual({
      type: "about:blank",
      title: "Bad Request",
      status: 400,
      detail: "Malformed HTTP request: Invalid method encountered",
      instance: headerOf(raw, "x-request-id"),
    });
  });

  it("is answered the same by a server of one's own given app.clientErrorHandler", async () => {
    const app = createApp({ routes: [path("/hello", { endpoint: hello })] });
    const server = createServer(app.nodeHandler).on("clientError", app.clientErrorHandler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const raw = await answerTo(
        (server.address() as AddressInfo).port,
        "GET /hello HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
      );
      expect([statusOf(raw), JSON.parse(bodyOf(raw))]).toEqual([
        400,
        { detail: "Malformed HTTP request: Invalid header token" },
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("is answered 413 for a body chunk whose extensions pass Node's limit", async () => {
    // An endpoint that reads its body: the answer waits for it, so Node's refusal comes first.
    const readsBody = endpoint({
      params: { body: p.Json(z.object({ a: z.int() })) },
      returns: JsonResponse,
      handler: (_request, { body }) => new JsonResponse(body),
    });
    const server = await serveEndpoint("/read", readsBody, ["POST"]);
    const raw = await answerTo(
      server.port,
      `POST /read HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1;${"e".repeat(20_000)}\r\n{\r\n0\r\n\r\n`,
    );
    expect([statusOf(raw), JSON.parse(bodyOf(raw))]).toEqual([
      413,
      { detail: "A chunk of the body carries more extensions than the server reads" },
    ]);
  });

  it("is answered 408 for a body that did not arrive in time, in the app's format and not by its exception handlers", async () => {
    // docs/errors.md: RequestTimeoutError is for handlers to raise; a late body is refused by the
    // server, where no request exists for a handler to see.
    const readsBody = endpoint({
      params: { body: p.Json(z.object({ a: z.int() })) },
      returns: JsonResponse,
      handler: (_request, { body }) => new JsonResponse(body),
    });
    const handled: string[] = [];
    const server = await serveEndpoint("/read", readsBody, ["POST"], {
      settings: { LIMITS: { headers_timeout: 300, request_timeout: 300 } },
      exceptionHandlers: [
        exceptionHandler(RequestTimeoutError, (error) => {
          handled.push(error.name);
          return new JsonResponse({ code: 408 }, { status: 200 });
        }),
      ],
    });
    const raw = await answerTo(
      server.port,
      'POST /read HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{"a":',
    );
    expect([statusOf(raw), headerOf(raw, "connection"), JSON.parse(bodyOf(raw))]).toEqual([
      408,
      "close",
      { detail: "The request did not arrive in time" },
    ]);
    expect(handled).toEqual([]);
  });

  it("leaves a client that reset its connection alone, and the server keeps serving", async () => {
    const server = await serveEndpoint("/hello", hello);
    const exchange = await openRaw(server.port);
    await exchange.write("GET /hello HTTP/1.1\r\nHost: x\r\nX-Half: ");
    exchange.socket.resetAndDestroy();
    const raw = await answerTo(server.port, "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect([statusOf(raw), JSON.parse(bodyOf(raw))]).toEqual([200, { hello: "world" }]);
  });
});
