import { Parser } from "@asyncapi/parser";
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { apiKeyHeader, httpBearer, oauth2Password } from "unruffled/security";
import { startServer, testClient } from "unruffled/testing";
import { generateAsyncApi, websocket } from "unruffled/websocket";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const Student = z.object({ id: z.int(), name: z.string() }).meta({ id: "Student" });
const ChatIn = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("say"), text: z.string() }),
    z.object({ type: z.literal("leave") }),
  ])
  .meta({ id: "ChatIn" });
const ChatOut = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("said"), text: z.string(), by: Student }),
    z.object({ type: z.literal("left"), by: Student }),
  ])
  .meta({ id: "ChatOut" });

const bearer = httpBearer({ bearerFormat: "JWT", verify: () => ({ id: 1 }) });
const key = apiKeyHeader({ name: "apiKey", header: "X-API-Key", verify: () => ({}) });
const password = oauth2Password({
  tokenUrl: "/token",
  scopes: { "chat:read": "Read the chat" },
  verify: () => ({}),
});

const chat = websocket({
  params: {
    room: p.Path(z.string(), { description: "The room's name" }),
    since: p.Query(z.int().optional()),
    client: p.Header(z.string(), { alias: "X-Client" }),
    user: p.Security(bearer),
  },
  inbound: ChatIn,
  outbound: ChatOut,
  handler: async () => {},
});
const ticker = websocket({
  params: { key: p.Security(key), reader: p.Security(password, { scopes: ["chat:read"] }) },
  inbound: z.object({ type: z.literal("noop") }),
  outbound: z.object({ price: z.number() }),
  handler: async () => {},
});
const student = endpoint({
  params: { id: p.Path(z.int()) },
  returns: [p.ResponseSpec({ model: Student })],
  handler: (_request, { id }) => new JsonResponse({ id, name: "Ann" }),
});

const app = createApp({
  settings: {
    OPENAPI: {
      info: { title: "Chat", version: "2.0.0" },
      servers: [{ url: "https://chat.example.com/v1", description: "Production" }],
      allow_public: true,
    },
  },
  routes: [
    path("/students/{id}", { endpoint: student }),
    path("/chat/{room}", { websocket: chat, name: "chat", summary: "A chat room", tags: ["chat"] }),
    path("/ticker", { websocket: ticker, name: "ticker" }),
  ],
});

describe("the AsyncAPI document", () => {
  it("is valid AsyncAPI 3.0: @asyncapi/parser reports 0 errors", async () => {
    const { diagnostics } = await new Parser().parse(JSON.stringify(generateAsyncApi(app)));
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === 0)).toEqual([]);
  });

  it("is served at /asyncapi.json, built from the declarations", async () => {
    const response = await testClient(app).get("/asyncapi.json");
    expect(response.status).toBe(200);
    expect(response.json()).toEqual(generateAsyncApi(app));
    const document = response.json() as any;
    expect(document.info).toEqual({ title: "Chat", version: "2.0.0" });
    expect(document.servers).toEqual({
      default: { host: "chat.example.com", protocol: "wss", pathname: "/v1", description: "Production" },
    });
    expect(document.channels.chat).toEqual({
      address: "/chat/{room}",
      summary: "A chat room",
      parameters: { room: { description: "The room's name" } },
      messages: {
        ChatIn: { $ref: "#/components/messages/ChatIn" },
        ChatOut: { $ref: "#/components/messages/ChatOut" },
        MessageValidationError: { $ref: "#/components/messages/MessageValidationError" },
      },
      bindings: {
        ws: {
          method: "GET",
          query: {
            type: "object",
            properties: { since: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 } },
          },
          headers: { type: "object", properties: { "X-Client": { type: "string" } }, required: ["X-Client"] },
          bindingVersion: "0.1.0",
        },
      },
    });
    expect(document.operations.chat_receive).toEqual({
      action: "receive",
      channel: { $ref: "#/channels/chat" },
      summary: "Messages a client sends",
      messages: [{ $ref: "#/channels/chat/messages/ChatIn" }],
      tags: [{ name: "chat" }],
      security: [{ $ref: "#/components/securitySchemes/bearerAuth" }],
    });
    expect(document.operations.chat_send.messages).toEqual([
      { $ref: "#/channels/chat/messages/ChatOut" },
      { $ref: "#/channels/chat/messages/MessageValidationError" },
    ]);
  });

  it("shares its message schemas by name with the OpenAPI components", () => {
    const asyncapi = generateAsyncApi(app) as any;
    const openapi = app.openapi();
    expect(asyncapi.components.schemas.Student).toEqual(openapi.components!.schemas!.Student);
    expect(asyncapi.components.schemas.ChatOut.oneOf[0].properties.by).toEqual({
      $ref: "#/components/schemas/Student",
    });
    expect(asyncapi.components.messages.MessageValidationError.payload).toEqual({
      $ref: "#/components/schemas/HTTPValidationError",
    });
  });

  it("mirrors the security schemes, with the scopes an operation needs", () => {
    const asyncapi = generateAsyncApi(app) as any;
    expect(asyncapi.components.securitySchemes).toEqual({
      oauth2: {
        type: "oauth2",
        flows: {
          // AsyncAPI wants absolute URLs: the relative one is resolved against the first server.
          password: {
            tokenUrl: "https://chat.example.com/token",
            availableScopes: { "chat:read": "Read the chat" },
          },
        },
      },
      apiKey: { type: "httpApiKey", name: "X-API-Key", in: "header" },
      bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
    });
    expect(asyncapi.operations.ticker_receive.security).toEqual([
      { $ref: "#/components/securitySchemes/apiKey" },
      { ...asyncapi.components.securitySchemes.oauth2, scopes: ["chat:read"] },
    ]);
  });

  it("is shown by a page at /asyncapi that loads nothing", async () => {
    const response = await testClient(app).get("/asyncapi");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = response.text;
    expect(html).toContain("<code>/chat/{room}</code>");
    expect(html).toContain("<h4>ChatIn</h4>");
    expect(html).not.toMatch(/<script|<link|src=|url\(/);
  });

  it("is not served without OPENAPI.allow_public", async () => {
    const closed = createApp({ routes: [path("/chat/{room}", { websocket: chat })] });
    expect((await testClient(closed).get("/asyncapi.json")).status).toBe(404);
  });
});

describe("a placeholder the upgrade reads with no parameter", () => {
  it("is a parameter of the channel all the same, as AsyncAPI requires of every address expression", async () => {
    const socket = websocket({
      inbound: z.string(),
      outbound: z.string(),
      origins: "*",
      handler: async () => {},
    });
    const lobby = createApp({ routes: [path("/lobby/{floor}", { websocket: socket, name: "lobby" })] });
    const document = generateAsyncApi(lobby) as any;
    expect(document.channels.lobby.address).toBe("/lobby/{floor}");
    expect(document.channels.lobby.parameters).toEqual({ floor: {} });
    const { diagnostics } = await new Parser().parse(JSON.stringify(document));
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === 0)).toEqual([]);
  });
});

describe("a path model on the upgrade", () => {
  it("documents each placeholder it reads as a parameter of the channel, with its field's description", async () => {
    const socket = websocket({
      params: {
        where: p.Path(z.object({ room: z.string().describe("The room's name"), user: z.string() })),
      },
      inbound: z.string(),
      outbound: z.string(),
      origins: "*",
      handler: async () => {},
    });
    const rooms = createApp({ routes: [path("/chat/{room}/{user}", { websocket: socket, name: "rooms" })] });
    const document = generateAsyncApi(rooms) as any;
    expect(document.channels.rooms.parameters).toEqual({
      room: { description: "The room's name" },
      user: {},
    });
    const { diagnostics } = await new Parser().parse(JSON.stringify(document));
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === 0)).toEqual([]);
  });
});

describe("a WebSocket route path a client must encode (docs/endpoints-and-routes.md, What the router answers)", () => {
  it("is the channel's address percent-encoded, which the route answers in process and over a socket", async () => {
    const greet = websocket({
      params: { floor: p.Path(z.string()) },
      inbound: z.string(),
      outbound: z.string(),
      origins: "*",
      handler: async (socket, { floor }) => {
        await socket.send(`floor ${floor}`);
      },
    });
    const hall = createApp({
      routes: [path("/salle à manger/{floor}", { websocket: greet, name: "hall" })],
    });
    const address = (generateAsyncApi(hall) as any).channels.hall.address as string;
    expect(address).toBe("/salle%20%C3%A0%20manger/{floor}");
    const inProcess = await testClient(hall).websocket(greet, { floor: "1 b" });
    const server = await startServer(hall);
    try {
      const overSocket = await new Promise<string>((resolve, reject) => {
        const socket = new WebSocket(`${server.url.replace("http", "ws")}${address.replace("{floor}", "2")}`);
        socket.onmessage = (event) => {
          resolve(JSON.parse(String(event.data)));
          socket.close();
        };
        socket.onerror = () => reject(new Error("The WebSocket was refused"));
      });
      expect([await inProcess.receive(), overSocket]).toEqual(["floor 1 b", "floor 2"]);
    } finally {
      await server.close();
    }
  });
});
