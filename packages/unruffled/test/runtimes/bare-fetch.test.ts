// docs/runtimes.md: `Bun.serve({ fetch: app.fetch })` and `Deno.serve(app.fetch)` work too. The
// fixture app served that way answers as it does through `serve()`, and an answer delivered in full
// is not taken for a client that left, Deno's abort of every request's signal included.
import { request as httpsRequest } from "node:https";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { endProcessGroups, waitFor } from "process-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSigned } from "../support/self-signed.ts";
import { runtimeCommand, type ServedApp, startOn } from "./runtime-process.ts";

const host = fileURLToPath(new URL("./bare-fetch-host.ts", import.meta.url));
const tlsHost = fileURLToPath(new URL("./tls-fetch-host.ts", import.meta.url));

afterAll(endProcessGroups);

describe.each(["bun", "deno"] as const)("app.fetch given to %s's own server", (runtime) => {
  let server: ServedApp;
  const url = (target: string) => `${server.origin}${target}`;
  const journal = async (): Promise<string[]> => (await fetch(url("/journal"))).json() as Promise<string[]>;

  beforeAll(async () => {
    server = await startOn(runtime, runtimeCommand(runtime, host, []), {}, /on http:\/\/127\.0\.0\.1:(\d+) /);
  });

  it("answers a declared route, a 404 and a 422 as serve() does", async () => {
    const found = await fetch(url("/declared/3"));
    expect([found.status, await found.text()]).toEqual([200, '{"id":3,"name":"Ada"}']);
    const missing = await fetch(url("/nowhere"));
    expect([missing.status, await missing.json()]).toEqual([404, { detail: "Not Found: /nowhere" }]);
    const invalid = await fetch(url("/declared/x"));
    expect(invalid.status).toBe(422);
  });

  it("leaves the client's address unknown, as the page says of a bare app.fetch", async () => {
    const response = await fetch(url("/client"));
    expect(await response.json()).toEqual({ scheme: "http", origin: server.origin });
  });

  it("believes the scheme of the request's URL: Deno makes it from a target in absolute form, Bun from Host", async () => {
    const { port } = server;
    const answer = await new Promise<string>((resolve, reject) => {
      let received = "";
      const socket = connect(port, "127.0.0.1", () =>
        socket.write(
          `GET https://127.0.0.1:${port}/secure/client HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
        ),
      );
      socket.on("data", (chunk) => (received += chunk.toString("latin1")));
      socket.once("error", reject);
      socket.once("close", () => resolve(received.split("\r\n")[0]!));
    });
    expect(answer).toBe(runtime === "deno" ? "HTTP/1.1 200 OK" : "HTTP/1.1 307 Temporary Redirect");
  });

  it("does not take an answer delivered in full for a client that left", async () => {
    for (const label of ["b1", "b2"]) {
      const response = await fetch(url(`/watched?label=${label}`));
      expect(await response.json()).toEqual({ label });
    }
    const work = await fetch(url("/work?label=bw"));
    expect(await work.json()).toEqual({ work: "bw" });
    // Deno aborts request.signal just after each answer: more requests give it every chance to.
    for (let index = 0; index < 5; index++) await journal();
    const entries = await waitFor("the clean-up of bw", async () => {
      const current = await journal();
      return current.includes("bw: closed, client there") ? current : undefined;
    });
    expect(entries.filter((entry) => entry.includes("aborted") || entry.includes("client gone"))).toEqual([]);
  });
});

/** GET over TLS, the self-signed certificate not checked: the status, Location and body. */
function getOverTls(port: number, target: string): Promise<[number, string | undefined, string]> {
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(
      { host: "127.0.0.1", port, path: target, rejectUnauthorized: false, agent: false },
      (incoming) => {
        let text = "";
        incoming.on("data", (chunk) => {
          text += chunk;
        });
        incoming.on("end", () => resolve([incoming.statusCode!, incoming.headers.location, text]));
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe.each(["bun", "deno"] as const)("app.fetch given to %s's own server over TLS", (runtime) => {
  let server: ServedApp;

  beforeAll(async () => {
    const { key, cert } = selfSigned();
    server = await startOn(
      runtime,
      runtimeCommand(runtime, tlsHost, []),
      { TLS_KEY: key, TLS_CERT: cert },
      /on https:\/\/127\.0\.0\.1:(\d+) /,
    );
  });

  it("resolves the https scheme, so httpsRedirect() passes the request instead of redirecting it to itself", async () => {
    const answer = await getOverTls(server.port, "/secure/client");
    expect(answer).toEqual([
      200,
      undefined,
      JSON.stringify({ scheme: "https", origin: `https://127.0.0.1:${server.port}` }),
    ]);
  });
});
