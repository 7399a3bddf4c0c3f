import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { captureOutput, endProcessGroups, freePort, spawnGroup, waitFor } from "process-support";
import { describe, expect, it } from "vitest";

describe("freePort", () => {
  it("gives a port of 127.0.0.1 that a server can listen on", async () => {
    const port = await freePort();
    const server = createServer();
    server.listen(port, "127.0.0.1");
    await once(server, "listening");
    expect(server.address()).toEqual({ address: "127.0.0.1", family: "IPv4", port });
    server.close();
  });
});

describe("captureOutput", () => {
  it("keeps standard output, standard error and both in arrival order, with UTF-8 split across chunks", async () => {
    // The pauses make each write its own chunk, so the order and the split character are tested.
    const script = `
      const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
      process.stdout.write("out ");
      await pause();
      process.stdout.write(Buffer.from([0xc3]));
      await pause();
      process.stdout.write(Buffer.from([0xa9]));
      await pause();
      process.stderr.write("err");
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "pipe" });
    const output = captureOutput(child);
    await once(child, "close");
    expect(output).toEqual({ stdout: "out é", stderr: "err", combined: "out éerr" });
  });
});

describe("waitFor", () => {
  it("resolves with the first value the probe returns that is not undefined, 0 included", async () => {
    const answers = [undefined, undefined, 0, 1];
    let calls = 0;
    const value = await waitFor("a value", () => answers[calls++], { intervalMs: 1 });
    expect({ value, calls }).toEqual({ value: 0, calls: 3 });
  });

  it("awaits a probe that returns a promise", async () => {
    expect(await waitFor("a promise", async () => "ready")).toBe("ready");
  });

  it("rejects with what it waited for once the time is up", async () => {
    await expect(waitFor("the moon", () => undefined, { timeoutMs: 20, intervalMs: 5 })).rejects.toThrow(
      new Error("timed out waiting for the moon"),
    );
  });
});

describe("spawnGroup and endProcessGroups", () => {
  it("end the process a test started with every process it started in turn", async () => {
    // The leader starts a grandchild that would outlive it, and prints the grandchild's pid.
    const script = `
      const { spawn } = await import("node:child_process");
      const grandchild = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      console.log(grandchild.pid);
      setInterval(() => {}, 1000);
    `;
    const leader = spawnGroup(process.execPath, ["--input-type=module", "-e", script], { stdio: "pipe" });
    const output = captureOutput(leader);
    const grandchild = await waitFor("the grandchild's pid", () => /^(\d+)\n/.exec(output.stdout)?.[1]);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive(Number(grandchild))).toBe(true);

    await endProcessGroups();
    expect(leader.signalCode).toBe("SIGKILL");
    await waitFor("the grandchild to be gone", () => (alive(Number(grandchild)) ? undefined : true));
  });
});
