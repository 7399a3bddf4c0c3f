import { connect } from "node:net";
import { createApp, type Settings } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { describe, expect, it } from "vitest";
import { bodyOf, openRaw, statusOf } from "../support/raw-http.ts";

/** An app whose `/slow` answers only when the test opens the gate, and says when a request arrived. */
async function startGatedApp(settings: Settings = {}) {
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  let arrived!: () => void;
  const requestArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const slow = endpoint({
    returns: JsonResponse,
    async handler() {
      arrived();
      await gate;
      return new JsonResponse({ finished: true });
    },
  });
  const fast = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({ fast: true }) });
  const app = createApp({
    settings,
    routes: [path("/slow", { endpoint: slow }), path("/fast", { endpoint: fast })],
  });
  await app.listen({ port: 0 });
  return { app, port: app.address()!.port, openGate, requestArrived };
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

describe("app.close()", () => {
  it("stops accepting, lets a request in flight finish with Connection: close, then resolves", async () => {
    const { app, port, openGate, requestArrived } = await startGatedApp();
    const exchange = await openRaw(port);
    await exchange.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
    await requestArrived;

    let closed = false;
    const closing = app.close({ timeout: 10_000 }).then(() => {
      closed = true;
    });
    expect(await refusesConnections(port)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(false);

    openGate();
    const raw = await exchange.closed();
    expect(statusOf(raw)).toBe(200);
    expect(raw.toLowerCase()).toContain("connection: close");
    expect(JSON.parse(bodyOf(raw))).toEqual({ finished: true });
    await closing;
    expect(closed).toBe(true);
  });

  it("closes idle keep-alive connections at once instead of waiting for their timeout", async () => {
    // Neither the keep-alive timeout nor close()'s deadline can end the connection while the test runs.
    const { app, port } = await startGatedApp({ LIMITS: { keep_alive_timeout: 600_000 } });
    const exchange = await openRaw(port);
    await exchange.write("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n");
    await exchange.waitFor('{"fast":true}');
    await app.close({ timeout: 600_000 });
    expect(await exchange.closed(15_000)).toContain('{"fast":true}');
  });

  it("cuts a request that outlasts the deadline, and resolves at the deadline", async () => {
    const { app, port, openGate, requestArrived } = await startGatedApp();
    const exchange = await openRaw(port);
    await exchange.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
    await requestArrived;
    const start = performance.now();
    // Resolves although the request never ends (the gate stays shut): not before the deadline.
    await app.close({ timeout: 300 });
    expect(performance.now() - start).toBeGreaterThanOrEqual(250);
    expect(await exchange.closed(15_000)).toBe("");
    openGate();
  });

  it("can listen again once closed", async () => {
    const { app } = await startGatedApp();
    await app.close();
    const server = await app.listen({ port: 0 });
    expect(server.listening).toBe(true);
    await app.close();
  });
});

describe("onClose", () => {
  it("runs once the server has closed, and close() waits for it", async () => {
    const events: string[] = [];
    const app = createApp({
      routes: [],
      onClose: async () => {
        events.push(`onClose, listening: ${app.address() !== undefined}`);
      },
    });
    await app.listen({ port: 0 });
    await app.close();
    events.push("closed");
    expect(events).toEqual(["onClose, listening: false", "closed"]);
  });
});

describe("audit-b: app.close()'s default deadline", () => {
  it("waits 10 s for a request in flight when no timeout is given, then cuts it", {
    timeout: 120_000,
  }, async () => {
    const { app, port, openGate, requestArrived } = await startGatedApp();
    const exchange = await openRaw(port);
    await exchange.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
    await requestArrived;
    const start = performance.now();
    await app.close();
    // Only a lower bound: however busy the machine, the deadline cannot come early.
    expect(performance.now() - start).toBeGreaterThanOrEqual(9_950);
    expect(await exchange.closed(5_000)).toBe("");
    openGate();
  });
});
