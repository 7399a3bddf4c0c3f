// RESPONSES.validate holds outbound messages as it holds answers; inbound messages, like request
// bodies, are always checked with every rule of their model.
import { createApp, ResponseValidationError } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { testClient } from "unruffled/testing";
import { publish, websocket } from "unruffled/websocket";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const Note = z.strictObject({ text: z.string() });
const Out = z.discriminatedUnion("type", [
  z.object({ type: z.literal("echo"), text: z.string().max(5) }),
  z.object({ type: z.literal("refused"), message: z.string() }),
]);

// Echoes each note; a note its outbound model refuses comes back as what send() threw.
const notes = websocket({
  inbound: Note,
  outbound: Out,
  onInvalid: "skip",
  async handler(socket) {
    for await (const note of socket) {
      try {
        await socket.send({ type: "echo", text: note.text });
      } catch (error) {
        await socket.send({ type: "refused", message: (error as Error).message });
      }
    }
  },
});

const postNote = endpoint({
  params: { note: p.Json(Note) },
  returns: [p.ResponseSpec({ model: z.object({ text: z.string() }) })],
  handler: (_request, { note }) => new JsonResponse(note),
});

// Echoes whatever text came, of whatever kind; what send() threw comes back as "refused".
const loose = websocket({
  inbound: z.object({ text: z.unknown() }),
  outbound: Out,
  async handler(socket) {
    for await (const note of socket) {
      try {
        await socket.send({ type: "echo", text: note.text as string });
      } catch (error) {
        await socket.send({ type: "refused", message: (error as Error).message });
      }
    }
  },
});

// Says which fields of each message reached the handler.
const keys = websocket({
  inbound: z.object({ text: z.string() }),
  outbound: z.object({ keys: z.array(z.string()) }),
  async handler(socket) {
    for await (const note of socket) await socket.send({ keys: Object.keys(note) });
  },
});

function appWith(validate: "strict" | "off") {
  return createApp({
    settings: { RESPONSES: { validate } },
    routes: [
      path("/notes", { websocket: notes }),
      path("/notes", { endpoint: postNote, methods: ["POST"] }),
      path("/loose", { websocket: loose }),
      path("/keys", { websocket: keys }),
    ],
  });
}

describe("RESPONSES.validate holds outbound WebSocket messages as it holds answers", () => {
  it("strict: send() throws for a message its model refuses by a rule other than the kind, and sends nothing", async () => {
    const app = appWith("strict");
    try {
      const socket = await testClient(app).websocket(notes, {});
      await socket.send({ text: "far too long" });
      expect(await socket.receive()).toEqual({
        type: "refused",
        message:
          'websocket "websocket_notes" (GET /notes) sent a message that its model refuses: text: Too big: expected string to have <=5 characters',
      });
      await socket.send({ text: "short" });
      expect(await socket.receive()).toEqual({ type: "echo", text: "short" });
      await socket.close();
    } finally {
      await app.close();
    }
  });

  it("off: send() checks each value's kind only, and sends the message", async () => {
    const app = appWith("off");
    try {
      const socket = await testClient(app).websocket(notes, {});
      await socket.send({ text: "far too long" });
      expect(await socket.receive()).toEqual({ type: "echo", text: "far too long" });
      await socket.close();
    } finally {
      await app.close();
    }
  });

  it("strict: publish() rejects a message its model refuses, before the broker has it", async () => {
    const app = appWith("strict");
    try {
      const error = await publish(app, notes, "news", { type: "echo", text: "far too long" }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).path).toBe("text");
      const off = appWith("off");
      await expect(publish(off, notes, "news", { type: "echo", text: "far too long" })).resolves.toBe(
        undefined,
      );
      await off.close();
    } finally {
      await app.close();
    }
  });
});

describe("outbound WebSocket messages of the wrong kind", () => {
  it.each(["strict", "off"] as const)(
    "make send() throw, and are not sent (RESPONSES.validate %s)",
    async (validate) => {
      const app = appWith(validate);
      try {
        const socket = await testClient(app).websocket(loose, {});
        await socket.send({ text: 42 });
        expect(await socket.receive()).toEqual({
          type: "refused",
          message:
            'websocket "websocket_loose" (GET /loose) sent a message that its model refuses: text: Invalid input: expected string, received number',
        });
        await socket.send({ text: "fine" });
        expect(await socket.receive()).toEqual({ type: "echo", text: "fine" });
        await socket.close();
      } finally {
        await app.close();
      }
    },
  );
});

describe("inbound WebSocket messages are checked as request bodies are", () => {
  it.each(["strict", "off"] as const)(
    "drop a field a z.object model does not declare, as a body's model does (RESPONSES.validate %s)",
    async (validate) => {
      const app = appWith(validate);
      try {
        const socket = await testClient(app).websocket(keys, {});
        await socket.sendRaw(JSON.stringify({ text: "hi", extra: 1 }));
        expect(await socket.receive()).toEqual({ keys: ["text"] });
        await socket.close();
      } finally {
        await app.close();
      }
    },
  );

  it.each(["strict", "off"] as const)(
    "refuses a field a strict model does not declare, with the issue an HTTP body gets (RESPONSES.validate %s)",
    async (validate) => {
      const app = appWith(validate);
      try {
        const client = testClient(app);
        const answer = await client.post("/notes", { json: { text: "hi", extra: 1 } });
        expect(answer.status).toBe(422);
        const [bodyIssue] = (answer.json() as { detail: { loc: unknown[]; msg: string; type: string }[] })
          .detail;
        const socket = await client.websocket(notes, {});
        await socket.sendRaw(JSON.stringify({ text: "hi", extra: 1 }));
        expect(await socket.receive()).toEqual({
          detail: [{ loc: ["message", "extra"], msg: bodyIssue!.msg, type: bodyIssue!.type, input: 1 }],
        });
        expect(bodyIssue).toEqual({
          loc: ["body", "extra"],
          msg: 'Unrecognized key: "extra"',
          type: "unrecognized_keys",
          input: 1,
        });
        await socket.close();
      } finally {
        await app.close();
      }
    },
  );
});
