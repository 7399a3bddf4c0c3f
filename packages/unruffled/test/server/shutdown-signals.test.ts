import { handleShutdownSignals } from "unruffled";
import { afterEach, describe, expect, it } from "vitest";

const removers: (() => void)[] = [];
afterEach(() => {
  for (const remove of removers.splice(0)) remove();
});

/** Installs the handlers with a recording log and exit, so no signal reaches the real process. */
function install(shutdown: (signal: NodeJS.Signals) => Promise<void> | void) {
  const messages: string[] = [];
  let resolveExit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => {
    resolveExit = resolve;
  });
  const log = {
    info: (message: string) => messages.push(message),
    error: (message: string) => messages.push(message),
  };
  removers.push(handleShutdownSignals(shutdown, { log, exit: resolveExit }));
  return { messages, exited };
}

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

// Real signals to this test process: the handlers installed here keep them from ending it.
describe("handleShutdownSignals", () => {
  it("runs the shutdown once on SIGTERM and exits 0; a second signal is ignored", async () => {
    const calls: string[] = [];
    let finish!: () => void;
    const { messages, exited } = install(
      (signal) =>
        new Promise<void>((resolve) => {
          calls.push(signal);
          finish = resolve;
        }),
    );
    process.kill(process.pid, "SIGTERM");
    await waitUntil(() => calls.length === 1);
    process.kill(process.pid, "SIGINT");
    await waitUntil(() => messages.length === 2);
    finish();
    expect(await exited).toBe(0);
    expect(calls).toEqual(["SIGTERM"]);
    expect(messages).toEqual([
      "SIGTERM: finishing requests in flight, then exiting",
      "SIGINT: already shutting down",
    ]);
  });

  it("exits 1 and says why when the shutdown fails", async () => {
    const { messages, exited } = install(() => {
      throw new Error("database would not close");
    });
    process.kill(process.pid, "SIGINT");
    expect(await exited).toBe(1);
    expect(messages).toEqual([
      "SIGINT: finishing requests in flight, then exiting",
      "Shutdown failed: database would not close",
    ]);
  });

  it("removes its handlers when asked", () => {
    const before = process.listenerCount("SIGTERM");
    const remove = handleShutdownSignals(() => undefined);
    expect(process.listenerCount("SIGTERM")).toBe(before + 1);
    remove();
    expect(process.listenerCount("SIGTERM")).toBe(before);
  });
});
