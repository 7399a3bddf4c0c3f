// An app with WebSocket routes served by `unruffled serve` on each runtime (docs/runtimes.md): on Bun
// by Bun.serve with its own WebSockets, on Deno by Node's `http` through Deno's Node compatibility,
// where the routes' upgrades work (Deno.serve answered the upgrade 404).
import { fileURLToPath } from "node:url";
import { endProcessGroups } from "process-support";
import { afterAll, expect, it } from "vitest";
import WebSocket from "ws";
import { serveOn } from "./runtime-process.ts";

const chat = fileURLToPath(new URL("../../../../docs/examples/websockets/chat.ts", import.meta.url));

afterAll(endProcessGroups);

/** One message sent on the chat route, and the first message that comes back. */
function exchange(origin: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${origin.replace("http", "ws")}/chat/lobby`, {
      headers: { authorization: "Bearer user-ann" },
    });
    socket.once("open", () => socket.send(JSON.stringify({ type: "say", text: "hi" })));
    socket.once("message", (data) => {
      socket.close(1000);
      resolve(JSON.parse(String(data)));
    });
    socket.once("unexpected-response", (_request, response) =>
      reject(new Error(`the upgrade was answered ${response.statusCode}`)),
    );
    socket.once("error", reject);
  });
}

it.each([
  ["node", ""],
  ["bun", ""],
  ["deno", ", node:http for its WebSocket routes"],
] as const)(
  "serves an app's WebSocket routes on %s, and says which server answers",
  async (runtime, said) => {
    const served = await serveOn(runtime, chat);
    expect(await exchange(served.origin)).toEqual({ type: "said", room: "lobby", user: "ann", text: "hi" });
    expect(served.output.combined).toContain(`${said})\n`);
    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
  },
);
