import { JsonResponse, PlainTextResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openRaw } from "../support/raw-http.ts";
import { serve } from "../support/serve.ts";

// Bodies of 8,192 characters or more go out as UTF-8 bytes that the Node adapter encoded itself
// (server/node/body-encoder.ts): these are the answers that take that way.

const Row = z.object({ id: z.int(), name: z.string() });
const ROWS = Array.from({ length: 400 }, (_, id) => ({ id, name: `Zoë ${id} — 😀`, password_hash: "x" }));
const DECLARED = JSON.stringify(ROWS.map(({ id, name }) => ({ id, name })));

const rows = endpoint({
  returns: [p.ResponseSpec({ model: z.array(Row) })],
  handler: () => new JsonResponse(ROWS),
});

/** 10,000 times the letter asked for, and a two-byte character. */
const filled = endpoint({
  params: { fill: p.Query(z.string().length(1)) },
  returns: PlainTextResponse,
  handler: (_request, { fill }) => new PlainTextResponse(`${fill.repeat(10_000)}é`),
});

describe("large bodies", () => {
  it("sends a large JSON body whole, with its length in UTF-8 bytes", async () => {
    const server = await serve([path("/rows", { endpoint: rows })]);
    const response = await server.fetch("/rows");
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(DECLARED)));
    expect(await response.text()).toBe(DECLARED);
  });

  it("answers HEAD for a large body with the length of its GET and no body", async () => {
    const server = await serve([path("/rows", { endpoint: rows })]);
    const exchange = await openRaw(server.port);
    await exchange.write(
      "HEAD /rows HTTP/1.1\r\nHost: test\r\n\r\nGET /missing HTTP/1.1\r\nHost: test\r\n\r\n",
    );
    // The 404 that follows shows where the HEAD's answer ended.
    const received = await exchange.waitFor("Not Found");
    const head = received.slice(0, received.indexOf("HTTP/1.1 404"));
    expect(head.startsWith("HTTP/1.1 200 OK\r\n")).toBe(true);
    expect(head).toContain(`\r\ncontent-length: ${Buffer.byteLength(DECLARED)}\r\n`);
    expect(head.endsWith("\r\n\r\n")).toBe(true);
    exchange.socket.destroy();
  });

  it("writes a pipelined answer whole, in its turn, while other connections' bodies are encoded", async () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    let enter!: () => void;
    const entered = new Promise<void>((resolve) => {
      enter = resolve;
    });
    const gate = endpoint({
      returns: PlainTextResponse,
      handler: async () => {
        enter();
        await opened;
        return new PlainTextResponse("opened");
      },
    });
    const server = await serve([path("/gate", { endpoint: gate }), path("/filled", { endpoint: filled })]);
    const pipelined = await openRaw(server.port);
    await pipelined.write(
      "GET /gate HTTP/1.1\r\nHost: test\r\n\r\nGET /filled?fill=a HTTP/1.1\r\nHost: test\r\n\r\n",
    );
    // The second request waits for the first one's answer, while another connection's body is encoded.
    await entered;
    expect(await (await server.fetch("/filled?fill=b")).text()).toBe(`${"b".repeat(10_000)}é`);
    open();
    const expected = Buffer.from(`${"a".repeat(10_000)}é`).toString("latin1");
    const received = await pipelined.waitFor(expected);
    expect(received.endsWith(`\r\n\r\n${expected}`)).toBe(true);
    expect(received).not.toContain("b".repeat(100));
    pipelined.socket.destroy();
  });
});
