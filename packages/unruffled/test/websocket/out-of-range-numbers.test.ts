// JSON.parse reads 1e400 as Infinity: a model of any value would hand it to the handler, as HTTP bodies
// did before they refused it. An inbound message is refused as a body is, with the number quoted as sent.
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { startServer } from "unruffled/testing";
import { websocket } from "unruffled/websocket";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const DOUBLE_RANGE = "Number out of range: a double holds at most ±1.7976931348623157e+308";

// Says what each message held, as JSON text (which writes Infinity as null).
const anyData = websocket({
  inbound: z.looseObject({ data: z.unknown(), tags: z.record(z.string(), z.any()).optional() }),
  outbound: z.object({ seen: z.string() }),
  onInvalid: "skip",
  async handler(socket) {
    for await (const message of socket) await socket.send({ seen: JSON.stringify(message) });
  },
});

describe("an inbound message with a number past a double's range", () => {
  it("is refused as an invalid message is, over a real socket, where the model takes any value", async () => {
    const server = await startServer(createApp({ routes: [path("/any", { websocket: anyData })] }));
    try {
      const socket = await server.websocket(anyData, {});
      await socket.sendRaw('{"data": {"a": [1, 1e400]}, "tags": {"t": -1E+999}, "extra": 2e308}');
      expect(await socket.receive()).toEqual({
        detail: [
          { loc: ["message", "data", "a", 1], msg: DOUBLE_RANGE, type: "too_big", input: "1e400" },
          { loc: ["message", "tags", "t"], msg: DOUBLE_RANGE, type: "too_small", input: "-1E+999" },
          { loc: ["message", "extra"], msg: DOUBLE_RANGE, type: "too_big", input: "2e308" },
        ],
      });
      // onInvalid "skip": the socket stays open; the largest double and one too small for a double pass.
      await socket.sendRaw('{"data": [1.7976931348623157e308, -5e-324, 1e-400]}');
      expect(await socket.receive()).toEqual({ seen: '{"data":[1.7976931348623157e+308,-5e-324,0]}' });
      await socket.close();
    } finally {
      await server.close();
    }
  });

  // Zod refuses Infinity for z.number(): its issue's input, Infinity, would be written as null.
  it("declared z.number(), is refused quoting the number as sent, as an HTTP body's 422 does", async () => {
    const Reading = z.object({ n: z.number(), list: z.array(z.number()) });
    const readings = websocket({
      inbound: Reading,
      outbound: z.object({ n: z.number() }),
      onInvalid: "skip",
      async handler(socket) {
        for await (const message of socket) await socket.send({ n: message.n });
      },
    });
    const post = endpoint({
      params: { reading: p.Json(Reading) },
      returns: JsonResponse,
      handler: (_request, { reading }) => new JsonResponse(reading),
    });
    const app = createApp({
      routes: [
        path("/readings", { websocket: readings }),
        path("/readings", { endpoint: post, methods: ["POST"] }),
      ],
    });
    const server = await startServer(app);
    try {
      const sent = '{"n": 1e400, "list": [2, -1E+999]}';
      const http = await fetch(`${server.url}/readings`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: sent,
      });
      expect(http.status).toBe(422);
      const { detail } = (await http.json()) as { detail: { loc: unknown[]; input: unknown }[] };
      expect(detail.map(({ loc, input }) => [loc, input])).toEqual([
        [["body", "n"], "1e400"],
        [["body", "list", 1], "-1E+999"],
      ]);
      const socket = await server.websocket(readings, {});
      await socket.sendRaw(sent);
      expect(await socket.receive()).toEqual({
        detail: detail.map((issue) => ({ ...issue, loc: ["message", ...issue.loc.slice(1)] })),
      });
      // onInvalid "skip": the socket stays open and reads the next message.
      await socket.sendRaw('{"n": 1.5, "list": []}');
      expect(await socket.receive()).toEqual({ n: 1.5 });
      await socket.close();
    } finally {
      await server.close();
    }
  });
});
