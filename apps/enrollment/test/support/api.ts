import type { App } from "unruffled";
import {
  type RunningServer,
  startServer,
  type TestClient,
  type TestResponse,
  testClient,
} from "unruffled/testing";
import { afterAll, afterEach, beforeEach } from "vitest";
import { createEnrollmentApp } from "../../src/app.ts";
import type { DialectName } from "../../src/db/index.ts";
import { type ServiceOnBun, serveOnBun } from "./on-bun.ts";
import { useFreshDatabase } from "./test-databases.ts";

/** A response's status and body, the body parsed as JSON when it is JSON. */
export function outcome(response: TestResponse): { status: number; body: unknown } {
  try {
    return { status: response.status, body: response.json() };
  } catch {
    return { status: response.status, body: response.text };
  }
}

/** The admin token of the tests' apps; the test client sends it with every request. */
export const TEST_ADMIN_TOKEN = "test-admin-token";

/** Where the service under test runs: in the test's process, or served on Bun by `unruffled serve`. */
export type ApiHost = "in process" | "on Bun";

/**
 * The enrollment service on a fresh database of one dialect for each test: called through the test
 * client (as the administrator), in process or, `"on Bun"`, over HTTP to the service served on Bun
 * on the same (SQLite) database; or over loopback HTTP when a test asks for `api.http()`.
 */
export function useApi(dialect: DialectName, settings = {}, host: ApiHost = "in process") {
  const db = useFreshDatabase(dialect, { shared: host === "on Bun" });
  const internalErrors: unknown[] = [];
  let app: App | undefined;
  let client: TestClient | undefined;
  let server: RunningServer | undefined;
  let onBun: ServiceOnBun | undefined;
  if (host === "on Bun") {
    // Started once the block's database exists (its first beforeEach), stopped after the block.
    afterAll(() => onBun?.stop());
  }
  beforeEach(async () => {
    internalErrors.length = 0;
    const log = { error: (details: Record<string, unknown>) => void internalErrors.push(details.err) };
    app = createEnrollmentApp(db(), { settings, log, adminToken: TEST_ADMIN_TOKEN });
    if (host === "on Bun") onBun ??= await serveOnBun(db.url(), TEST_ADMIN_TOKEN);
    client = testClient(app, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      ...(onBun === undefined ? {} : { baseUrl: onBun.origin }),
    });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return {
    host,
    db,
    internalErrors,
    /** The in-process client of this test's app. */
    client: () => client!,
    /**
     * This test's app listening on a loopback port, started on first use and closed after the test;
     * on Bun, the service there.
     */
    http: async (): Promise<Pick<RunningServer, "url" | "fetch">> => {
      if (onBun !== undefined) {
        const origin = onBun.origin;
        return { url: origin, fetch: (path, init) => fetch(origin + path, init) };
      }
      server ??= await startServer(app!);
      return server;
    },
    get: async (path: string) => outcome(await client!.get(path)),
    post: async (path: string, json: unknown) => outcome(await client!.post(path, { json })),
  };
}
