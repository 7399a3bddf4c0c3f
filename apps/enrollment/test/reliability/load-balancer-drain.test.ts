import { mkdtemp, rm } from "node:fs/promises";
import { Agent, type IncomingMessage, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startHaproxy, type TestHaproxy, waitFor } from "process-support";
import { readEvents } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/index.ts";
import { createStudents, createTestCourse, storedEnrollments } from "../support/fixtures.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { type ServiceProcess, startService } from "./support/service-process.ts";

// The client and the load balancer on loopback addresses of their own, so that the service can tell
// the client (127.0.0.2) from its proxy (127.0.0.3), which is the one peer it trusts.
const CLIENT_ADDRESS = "127.0.0.2";
const PROXY_ADDRESS = "127.0.0.3";
// HAProxy marks a server down after 2 failed checks 250 ms apart; the drain lasts far longer.
const DRAIN_DELAY_MS = 3_000;

interface Outcome {
  ok: number;
  failures: string[];
}

/** One request through the load balancer on a keep-alive connection of `agent`; what went wrong, if anything. */
function call(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  body?: unknown,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        headers: payload === undefined ? {} : { "content-type": "application/json" },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () => {
          if (response.statusCode !== 200) resolve(`${method} ${path}: ${response.statusCode} ${text}`);
          else
            resolve(
              (JSON.parse(text) as { code: number }).code === 0 ? undefined : `${method} ${path}: ${text}`,
            );
        });
        response.on("error", (error) => resolve(`${method} ${path}: ${error.message}`));
      },
    );
    outgoing.setTimeout(30_000, () => outgoing.destroy(new Error("no answer within 30 s")));
    outgoing.on("error", (error) => resolve(`${method} ${path}: ${error.message}`));
    outgoing.end(payload);
  });
}

/**
 * A course's event stream through the load balancer that reconnects as EventSource does, with the
 * Last-Event-ID of the last event it got; it checks that ids go on without a gap across reconnections.
 */
function followCourse(port: number, courseId: number) {
  const state = { enrolled: -1, lastId: 0, connections: 0, failures: [] as string[], stopped: false };
  let current: ReturnType<typeof request> | undefined;
  const open = () =>
    new Promise<IncomingMessage>((resolve, reject) => {
      current = request(
        {
          host: "127.0.0.1",
          port,
          localAddress: CLIENT_ADDRESS,
          path: `/api/enroll/course-events?course_id=${courseId}`,
          agent: false,
          headers: state.lastId === 0 ? {} : { "last-event-id": String(state.lastId) },
        },
        resolve,
      );
      current.on("error", reject);
      current.end();
    });
  const run = async () => {
    while (!state.stopped) {
      try {
        const response = await open();
        state.connections++;
        if (response.statusCode !== 200) state.failures.push(`stream answered ${response.statusCode}`);
        for await (const event of readEvents<{ enrolled: number }>(response)) {
          const id = Number(event.id);
          if (id !== state.lastId + 1) state.failures.push(`event ${id} after ${state.lastId}`);
          if (event.data.enrolled < state.enrolled)
            state.failures.push(`enrolled went back to ${event.data.enrolled}`);
          state.lastId = id;
          state.enrolled = event.data.enrolled;
        }
      } catch (error) {
        if (!state.stopped) state.failures.push(`stream: ${(error as Error).message}`);
      }
    }
  };
  const done = run();
  return {
    state,
    async stop() {
      state.stopped = true;
      current?.destroy();
      await done;
    },
  };
}

describe("two instances behind HAProxy, restarted one after the other", () => {
  let postgres: TestPostgres;
  let database: Database;
  let databaseUrl: string;
  let folder: string;
  let haproxy: TestHaproxy | undefined;
  const services: Record<string, ServiceProcess> = {};
  const ports: Record<string, number> = {};

  const startInstance = async (name: string) => {
    services[name] = await startService({
      databaseUrl,
      args: ["--workers", "2"],
      port: ports[name]!,
      env: {
        DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
        TRUSTED_PROXIES: PROXY_ADDRESS,
        LOG_LEVEL: "info",
      },
    });
  };

  beforeAll(async () => {
    postgres = await startTestPostgres();
    databaseUrl = await postgres.createDatabase();
    database = await openDatabase(databaseUrl);
    folder = await mkdtemp(join(tmpdir(), "enrollment-haproxy-"));
    ports.a = await freePort();
    ports.b = await freePort();
    await Promise.all([startInstance("a"), startInstance("b")]);
  });

  afterAll(async () => {
    haproxy?.child.kill("SIGKILL");
    for (const service of Object.values(services))
      if (service.child.exitCode === null) service.signal("SIGKILL");
    await database?.close();
    await postgres?.stop();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it("lose no request and no course change, and the service logs the client's own address", async () => {
    const students = await createStudents(database, 400);
    const courseId = await createTestCourse(database, { max_students: 1_000 });
    const port = await freePort();
    const balancer = await startHaproxy({
      port,
      folder,
      servers: ports,
      forwardFor: true,
      source: PROXY_ADDRESS,
    });
    haproxy = balancer;
    await balancer.sees("a", "UP");
    await balancer.sees("b", "UP");

    // Steady load: four keep-alive clients, each alternating a list and, while students remain, a bind.
    const agent = new Agent({ keepAlive: true, maxSockets: 4, localAddress: CLIENT_ADDRESS });
    const outcome: Outcome = { ok: 0, failures: [] };
    let binds = 0;
    let next = 0;
    const phaseBinds = Math.floor(students.length / 3);
    let bindBudget = phaseBinds;
    let loading = true;
    const tell = (failure: string | undefined) => {
      if (failure === undefined) outcome.ok++;
      else outcome.failures.push(failure);
    };
    const client = async () => {
      // Until both restarts are done, however long they take: a client that stopped after a number
      // of rounds left the test waiting for answers nobody asked for when a restart was slow (a
      // busy machine). A pause between rounds keeps the load modest, so the restarts get the CPU.
      for (let round = 0; loading; round++) {
        if (round > 0) await new Promise((resolve) => setTimeout(resolve, 2));
        tell(await call(agent, port, "GET", "/api/enroll/student-list?size=1"));
        // One bind in four rounds, within the budget of the phase: a third of the students before
        // the restarts, a third from each SIGTERM on, so that binds run while each instance drains.
        if (round % 4 !== 0 || next >= bindBudget) continue;
        const failure = await call(agent, port, "POST", "/api/enroll/bind", {
          student_id: students[next++]!,
          course_id: courseId,
        });
        tell(failure);
        if (failure === undefined) binds++;
      }
    };
    const stream = followCourse(port, courseId);
    const load = Promise.all([client(), client(), client(), client()]);
    const progress = async (requests: number) =>
      waitFor(`${requests} answers`, () => (outcome.ok >= requests ? true : undefined), {
        timeoutMs: 90_000,
      });

    await progress(20);
    for (const name of ["a", "b"]) {
      const service = services[name]!;
      bindBudget += phaseBinds;
      service.signal("SIGTERM");
      // Readiness turns 503 at once: HAProxy takes the instance out while it still serves.
      await balancer.sees(name, "DOWN");
      expect(await service.exited).toBe(0);
      const served = outcome.ok;
      await startInstance(name);
      await balancer.sees(name, "UP");
      await progress(served + 20);
    }
    loading = false;
    await load;
    agent.destroy();

    const enrolled = await storedEnrollments(database, courseId);
    await waitFor(
      "the stream to tell the last bind",
      () => (stream.state.enrolled === enrolled ? true : undefined),
      {
        timeoutMs: 30_000,
      },
    );
    await stream.stop();
    balancer.child.kill("SIGTERM");

    expect(outcome.failures).toEqual([]);
    expect(stream.state.failures).toEqual([]);
    // Every bind answered ok is stored, and the stream, reconnected at least once per restart, told them all.
    expect(enrolled).toBe(binds);
    expect(stream.state.connections).toBeGreaterThanOrEqual(2);
    expect(balancer.output.combined).not.toMatch(/ALERT/);
    // The access log of the instances names the client, not HAProxy (the trusted proxy in between).
    const logged = Object.values(services).map((service) => service.output());
    expect(logged.join("").match(/"client":"127\.0\.0\.2"/g)?.length).toBeGreaterThan(0);
    expect(logged.join("")).not.toMatch(/"client":"127\.0\.0\.3"/);
  });
});
