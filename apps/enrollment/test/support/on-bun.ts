import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { captureOutput, endProcessGroup, spawnGroup, waitFor } from "process-support";

const appFolder = fileURLToPath(new URL("../..", import.meta.url));
const bun = fileURLToPath(new URL("../../../../node_modules/.bin/bun", import.meta.url));
const cli = fileURLToPath(new URL("../../../../packages/unruffled/bin/unruffled.js", import.meta.url));

/** The service served on Bun in a process of its own. */
export interface ServiceOnBun {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  stop(): Promise<void>;
}

/**
 * The service as `npm run start:bun` starts it (`unruffled serve src/server.ts` on Bun, from the
 * sources), on the database at `databaseUrl` and with `adminToken`; resolves once it listens.
 */
export async function serveOnBun(databaseUrl: string, adminToken: string): Promise<ServiceOnBun> {
  const child: ChildProcess = spawnGroup(
    bun,
    ["--conditions=source", cli, "serve", "src/server.ts", "--port", "0"],
    {
      cwd: appFolder,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", DATABASE_URL: databaseUrl, ENROLL_ADMIN_TOKEN: adminToken },
    },
  );
  const output = captureOutput(child);
  const port = await waitFor(
    "the service to listen on Bun",
    () => {
      if (child.exitCode !== null) throw new Error(`The service exited on Bun:\n${output.combined}`);
      return /on http:\/\/127\.0\.0\.1:(\d+) /.exec(output.combined)?.[1];
    },
    { timeoutMs: 60_000 },
  );
  return { origin: `http://127.0.0.1:${port}`, stop: () => endProcessGroup(child) };
}
