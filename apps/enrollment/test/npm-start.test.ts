// `npm start`, the README's first command, when the machine stops it from starting: one readable
// line on standard error and exit code 1, with no stack and no block of npm errors.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { endProcessGroups, freePort, runToEnd } from "process-support";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

// What npm prints on standard output whenever it runs the script, on success too.
const NPM_ECHO = "\n> start\n> npm run start -w apps/enrollment --silent --\n\n";

// npm runs on the Node that runs the tests, without the npm_* variables of an enclosing `npm test`
// (which would point it elsewhere) and without its weekly update notice.
const env: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")),
);
env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH}`;
env.npm_config_update_notifier = "false";

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

// npm's own warnings about the machine's configuration (an npm 11 that no longer knows a `nodedir`
// set in ~/.npmrc, say) are the machine's, not the app's: they are left out of what is compared.
function withoutNpmWarnings(stderr: string): string {
  return stderr
    .split(/(?<=\n)/)
    .filter((line) => !line.startsWith("npm warn "))
    .join("");
}

async function npmStart(variables: Record<string, string>, args: string[] = []): Promise<Outcome> {
  const outcome = await runToEnd("npm", ["start", ...args], { cwd: ROOT, env: { ...env, ...variables } });
  return { ...outcome, stderr: withoutNpmWarnings(outcome.stderr) };
}

// npm, the service and its workers: a start gets 60 s on a busy machine, and a test that fails or
// times out ends them all.
vi.setConfig({ testTimeout: 120_000 });
afterEach(endProcessGroups);

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "enrollment-npm-start-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("npm start", () => {
  // The root script hands what follows `--` to the service: npm would otherwise take `--port` for
  // its own setting, and the service would be given only "9000".
  it("refuses an argument the service does not take, naming it, in one line, and exits 1", async () => {
    const outcome = await npmStart({ DATABASE_URL: join(folder, "enrollment.db") }, ["--", "--port", "9000"]);
    expect(outcome).toEqual({
      code: 1,
      stdout: "\n> start\n> npm run start -w apps/enrollment --silent -- --port 9000\n\n",
      stderr:
        'Unknown argument "--port": the service takes --workers N; the port, host and other settings come from the environment (PORT=9000 npm start).\n',
    });
  });

  it("says in one line that the port is taken, and exits 1", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as { port: number };
    try {
      const outcome = await npmStart({ PORT: String(port), DATABASE_URL: join(folder, "enrollment.db") });
      expect(outcome).toEqual({
        code: 1,
        stdout: NPM_ECHO,
        stderr: `Cannot listen on 127.0.0.1:${port}: another process listens there (EADDRINUSE); set PORT to a free port.\n`,
      });
    } finally {
      holder.close();
    }
  });

  it.each(["1", "2"])(
    "says in one line that the database refuses the connection, naming it without its password, and exits 1 (WORKERS=%s)",
    async (workers) => {
      const closed = await freePort();
      const outcome = await npmStart({
        PORT: "0",
        WORKERS: workers,
        DATABASE_URL: `postgres://enrollment:secret@127.0.0.1:${closed}/app?sslmode=disable`,
      });
      expect(outcome).toEqual({
        code: 1,
        stdout: NPM_ECHO,
        stderr: `Cannot open the database postgres://enrollment@127.0.0.1:${closed}/app: connect ECONNREFUSED 127.0.0.1:${closed}; check DATABASE_URL.\n`,
      });
    },
  );

  it("says in one line that the database refuses its role, with WORKERS=2, and exits 1", async () => {
    const { hostname, port } = new URL(process.env.TEST_DATABASE_URL!);
    const outcome = await npmStart({
      PORT: "0",
      WORKERS: "2",
      DATABASE_URL: `postgres://nobody@${hostname}:${port}/postgres`,
    });
    expect(outcome).toEqual({
      code: 1,
      stdout: NPM_ECHO,
      stderr: `Cannot open the database postgres://nobody@${hostname}:${port}/postgres: role "nobody" does not exist; check DATABASE_URL.\n`,
    });
  });
});
