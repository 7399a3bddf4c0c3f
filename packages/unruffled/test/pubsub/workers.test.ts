import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { waitFor } from "process-support";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CliProcess } from "../cli/support/cli-process.ts";

const APP = fileURLToPath(new URL("./fixtures/workers-app.ts", import.meta.url));
vi.setConfig({ testTimeout: 180_000 });

const running: CliProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")));
});

interface WorkerState {
  pid: number;
  a: string[];
  b: string[];
}

/** One request on a connection of its own, so that the primary hands it to the next worker in turn. */
function call(url: string, method: string, path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${url}${path}`, { method, agent: false, timeout: 10_000 }, (response) => {
      let body = "";
      response.on("data", (chunk) => {
        body += chunk;
      });
      response.on("end", () => resolve(JSON.parse(body)));
    });
    outgoing.on("timeout", () => outgoing.destroy(new Error("timed out")));
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** The state of both workers, asking until two different pids answered. */
async function bothStates(url: string): Promise<WorkerState[]> {
  const states = new Map<number, WorkerState>();
  return waitFor(
    "the state of both workers",
    async () => {
      const state = (await call(url, "GET", "/state")) as WorkerState;
      states.set(state.pid, state);
      return states.size === 2 ? [...states.values()] : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 1 },
  );
}

/** Posts until both workers answered once; returns how many times each worker (by pid) answered. */
async function postToBoth(url: string, path: string): Promise<Map<number, number>> {
  const answers = new Map<number, number>();
  await waitFor(
    `${path} on both workers`,
    async () => {
      const { pid } = (await call(url, "POST", path)) as { pid: number };
      answers.set(pid, (answers.get(pid) ?? 0) + 1);
      return answers.size === 2 ? true : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 1 },
  );
  return answers;
}

/** What one subscription should hold from each publisher: its rounds of `count`, in order. */
function inOrder(pid: number, rounds: number, count: number): string[] {
  return Array.from({ length: rounds }, (_, round) =>
    Array.from({ length: count }, (_, index) => `${pid}:${round}:${index}`),
  ).flat();
}

describe("app.pubsub under unruffled serve --workers 2", () => {
  it("delivers each worker's messages to every subscription in every worker exactly once, in each publisher's order", async () => {
    const server = new CliProcess(["serve", APP, "--port", "0", "--workers", "2"]);
    running.push(server);
    const url = await server.served(1);
    await server.served(2);
    // Each worker publishes 200 messages at least once (a round per request that reached it).
    const rounds = await postToBoth(url, "/publish?count=200");
    const total = [...rounds.values()].reduce((sum, count) => sum + count * 200, 0);
    const states = await waitFor(
      "every published message in both workers",
      async () => {
        const states = await bothStates(url);
        const done = states.every((state) => state.a.length >= total && state.b.length >= total);
        return done ? states : undefined;
      },
      { timeoutMs: 60_000 },
    );
    for (const state of states) {
      for (const subscription of [state.a, state.b]) {
        expect(subscription).toHaveLength(total);
        for (const [publisher, count] of rounds) {
          const own = subscription.filter((message) => message.startsWith(`${publisher}:`));
          expect(own).toEqual(inOrder(publisher, count, 200));
        }
      }
    }
  });

  it("stops delivering to a worker's subscription once it unsubscribed, and keeps delivering to the other", async () => {
    const server = new CliProcess(["serve", APP, "--port", "0", "--workers", "2"]);
    running.push(server);
    const url = await server.served(1);
    await server.served(2);
    await postToBoth(url, "/unsubscribe-b");
    const rounds = await postToBoth(url, "/publish?count=5");
    const total = [...rounds.values()].reduce((sum, count) => sum + count * 5, 0);
    const states = await waitFor(
      "the messages in both workers",
      async () => {
        const states = await bothStates(url);
        return states.every((state) => state.a.length >= total) ? states : undefined;
      },
      { timeoutMs: 60_000 },
    );
    for (const state of states) {
      expect(state.a).toHaveLength(total);
      expect(state.b).toEqual([]);
    }
  });

  it("refuses publish and subscribe on a closed workers broker, naming it", async () => {
    const server = new CliProcess(["serve", APP, "--port", "0", "--workers", "2"]);
    running.push(server);
    const url = await server.served(1);
    const closed = "The workers PubSub is closed: publish and subscribe on a new one";
    expect(await call(url, "POST", "/closed-broker")).toEqual({ refusals: [closed, closed] });
  });

  it("ends a worker whose primary died: there is no outage to come back from", async () => {
    const server = new CliProcess(["serve", APP, "--port", "0", "--workers", "2"]);
    running.push(server);
    const url = await server.served(1);
    await server.served(2);
    const workers = (await bothStates(url)).map((state) => state.pid);
    server.child.kill("SIGKILL");
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await waitFor("both workers to end", async () => (workers.some(alive) ? undefined : true), {
      timeoutMs: 60_000,
    });
    expect(workers.filter(alive)).toEqual([]);
  });
});
