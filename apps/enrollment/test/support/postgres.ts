import { execFile, execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "process-support";

const run = promisify(execFile);

/** A PostgreSQL server that tests may create databases in. */
export interface TestPostgres {
  /** Creates an empty database with a unique name and returns its URL. */
  createDatabase(): Promise<string>;
  /** Drops the databases created here, and stops and deletes the server if it was started here. */
  stop(): Promise<void>;
  /** Present only for a private cluster: an outside server is not ours to stop. */
  control?: ServerControl | undefined;
}

/**
 * The server named by `TEST_DATABASE_URL` if set, else a private throwaway cluster built from the
 * installed PostgreSQL binaries (about a second to start).
 * @example const server = await startTestPostgres(); const url = await server.createDatabase();
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const existing = process.env.TEST_DATABASE_URL;
  if (existing) {
    return databasesIn(existing);
  }
  return startPrivatePostgres();
}

/** A throwaway cluster of our own, which tests may also take down and bring back. */
export async function startPrivatePostgres(): Promise<Required<TestPostgres>> {
  const cluster = await startCluster();
  return { ...databasesIn(cluster.url), stop: cluster.stop, control: cluster.control };
}

/** Whether Debian's PostgreSQL binaries are installed, so private clusters can be started. */
export function postgresInstalled(): boolean {
  return postgresVersions().length > 0;
}

/**
 * Vitest `globalSetup` entry: one cluster for the whole run, shared by every test file through
 * `TEST_DATABASE_URL` (each file still gets its own databases). Optional: without it, every file
 * starts its own cluster.
 */
export async function setup(): Promise<() => Promise<void>> {
  if (process.env.TEST_DATABASE_URL) {
    return async () => undefined;
  }
  const cluster = await startCluster();
  process.env.TEST_DATABASE_URL = cluster.url;
  return cluster.stop;
}

/** Creates databases in a server that outlives the tests, and drops them at the end. */
function databasesIn(serverUrl: string): TestPostgres {
  const created: string[] = [];
  return {
    async createDatabase() {
      // pid + counter + random: unique across parallel test files sharing one server.
      const name = `enrollment_test_${process.pid}_${created.length}_${Math.random().toString(36).slice(2, 8)}`;
      await onServer(serverUrl, `create database ${name}`);
      created.push(name);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async stop() {
      for (const name of created.splice(0)) {
        await onServer(serverUrl, `drop database if exists ${name} with (force)`);
      }
    },
  };
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

interface Cluster {
  url: string;
  control: ServerControl;
  stop(): Promise<void>;
}

/** Takes the server down and brings it back on the same port, to test outages. */
export interface ServerControl {
  kill(): Promise<void>;
  start(): Promise<void>;
}

async function startCluster(): Promise<Cluster> {
  const bin = postgresBinaries();
  const dir = await mkdtemp(join(tmpdir(), "enrollment-pg-"));
  // PostgreSQL refuses to run as root: as root, run its programs as the `postgres` user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    await chown(dir, userId("-u"), userId("-g"));
  }
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, program), ...args]] : [join(bin, program), args];
  const pgProgram = (program: string, args: string[]) => run(...command(program, args));

  const data = join(dir, "data");
  await pgProgram("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const startOn = (port: number) =>
    pgProgram("pg_ctl", [
      "-D",
      data,
      "-l",
      join(dir, "log"),
      "-w",
      "-o",
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`,
      "start",
    ]);
  const port = await startOnFreePort(startOn);

  const killArgs = ["-D", data, "-m", "immediate", "-w", "stop"];
  // If the test process dies without teardown, do not leave a server running.
  const killOnExit = () => {
    try {
      execFileSync(...command("pg_ctl", killArgs), { stdio: "ignore" });
    } catch {
      // Already down: nothing to clean up.
    }
  };
  process.once("exit", killOnExit);

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    control: {
      kill: async () => {
        await pgProgram("pg_ctl", killArgs);
      },
      start: async () => {
        await startOn(port);
      },
    },
    async stop() {
      process.removeListener("exit", killOnExit);
      await pgProgram("pg_ctl", killArgs).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const postgresRoot = "/usr/lib/postgresql";

// Debian installs each major version under /usr/lib/postgresql/<version>/bin.
function postgresVersions(): string[] {
  if (!existsSync(postgresRoot)) {
    return [];
  }
  return readdirSync(postgresRoot)
    .filter((version) => existsSync(join(postgresRoot, version, "bin", "initdb")))
    .sort((a, b) => Number(a) - Number(b));
}

function postgresBinaries(): string {
  const newest = postgresVersions().at(-1);
  if (newest === undefined) {
    throw new Error("PostgreSQL is not installed: apt-get install -y postgresql, or set TEST_DATABASE_URL");
  }
  return join(postgresRoot, newest, "bin");
}

function userId(flag: "-u" | "-g"): number {
  return Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
}

// Another process may take the port between probing and starting: try a few.
async function startOnFreePort(start: (port: number) => Promise<unknown>): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await start(port);
      return port;
    } catch (error) {
      if (attempt === 3) {
        throw error;
      }
    }
  }
}
