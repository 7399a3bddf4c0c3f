import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BatchedDestination } from "../../src/logging/batched-destination.ts";

/** A writer that records what it is asked to do. */
function recordingWriter() {
  const calls: string[] = [];
  return {
    calls,
    write: (text: string) => void calls.push(`write ${JSON.stringify(text)}`),
    flush: (callback: (error?: Error) => void) => {
      calls.push("flush");
      callback();
    },
    flushSync: () => void calls.push("flushSync"),
  };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("the batched log destination", () => {
  it("hands the lines of one event-loop turn to the writer as one string, in order", async () => {
    const writer = recordingWriter();
    const destination = new BatchedDestination(writer);
    destination.write("a\n");
    destination.write("b\n");
    expect(writer.calls).toEqual([]);
    await nextTurn();
    destination.write("c\n");
    await nextTurn();
    expect(writer.calls).toEqual(['write "a\\nb\\n"', 'write "c\\n"']);
  });

  it("writes the pending lines at once for flushSync and flush", async () => {
    const writer = recordingWriter();
    const destination = new BatchedDestination(writer);
    destination.write("a\n");
    destination.flushSync();
    destination.write("b\n");
    const flushed = new Promise((resolve) => destination.flush(resolve));
    await flushed;
    await nextTurn();
    expect(writer.calls).toEqual(['write "a\\n"', "flushSync", 'write "b\\n"', "flush"]);
  });

  it("loses no line when the process exits right after logging", async () => {
    const script = [
      'import { createApp } from "unruffled";',
      'import { PlainTextResponse } from "unruffled/http";',
      'import { endpoint, path } from "unruffled/route";',
      'import { testClient } from "unruffled/testing";',
      'const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("hi") });',
      'const app = createApp({ settings: { LOGGING: { level: "info" } }, routes: [path("/hello", { endpoint: hello })] });',
      "const client = testClient(app);",
      'for (let n = 1; n <= 3; n++) await client.get("/hello", { headers: { "x-request-id": "exit-" + n } });',
      "process.exit(0);",
    ].join("\n");
    const root = fileURLToPath(new URL("../../../../", import.meta.url));
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--conditions=source", "--input-type=module", "-e", script],
        { cwd: root },
        (error, out) => (error ? reject(error) : resolve(out)),
      );
    });
    const ids = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).reqId);
    expect(ids).toEqual(["exit-1", "exit-2", "exit-3"]);
  });
});
