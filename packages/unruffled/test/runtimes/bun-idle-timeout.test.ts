// Bun.serve closes a connection on which nothing was sent or received for its idle timeout, which
// serve() sets from LIMITS.request_timeout: an event stream is exempt, a slow answer is not.
import { fileURLToPath } from "node:url";
import { endProcessGroups } from "process-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedApp, serveOn } from "./runtime-process.ts";

const fixture = fileURLToPath(new URL("./idle-fixture-app.ts", import.meta.url));
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("serve() on Bun with a request_timeout of one second", () => {
  let server: ServedApp;
  beforeAll(async () => {
    server = await serveOn("bun", fixture);
  });
  afterAll(endProcessGroups);

  it("keeps an event stream open past the idle timeout", async () => {
    const stream = await fetch(`${server.origin}/follow`);
    const reader = stream.body!.getReader();
    let received = "";
    const readUntil = async (text: string) => {
      while (!received.includes(text)) received += new TextDecoder().decode((await reader.read()).value);
    };
    await readUntil('data: {"n":0}');
    // Silent for three times the idle timeout: then an event must still reach the client.
    await delay(3_000);
    expect(await (await fetch(`${server.origin}/push?n=7`)).json()).toEqual({ pushed: 7 });
    await readUntil('data: {"n":7}');
    expect(received).toBe(': connected\n\ndata: {"n":0}\n\ndata: {"n":7}\n\n');
    await reader.cancel();
  });

  it("closes the connection of an answer that stays silent past the idle timeout", async () => {
    await expect(fetch(`${server.origin}/slow?ms=5000`)).rejects.toThrow("fetch failed");
    expect(await (await fetch(`${server.origin}/slow?ms=0`)).json()).toEqual({ waited: 0 });
  });
});
