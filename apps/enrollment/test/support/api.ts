import type { App } from "unruffled";
import {
  type RunningServer,
  startServer,
  type TestClient,
  type TestResponse,
  testClient,
} from "unruffled/testing";
import { afterEach, beforeEach } from "vitest";
import { createEnrollmentApp } from "../../src/app.ts";
import type { DialectName } from "../../src/db/index.ts";
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

/**
 * The enrollment service on a fresh database of one dialect for each test: called in-process
 * through the test client (as the administrator), or over loopback HTTP when a test asks for
 * `api.http()`.
 */
export function useApi(dialect: DialectName, settings = {}) {
  const db = useFreshDatabase(dialect);
  const internalErrors: unknown[] = [];
  let app: App | undefined;
  let client: TestClient | undefined;
  let server: RunningServer | undefined;
  beforeEach(() => {
    internalErrors.length = 0;
    const log = { error: (details: Record<string, unknown>) => void internalErrors.push(details.err) };
    app = createEnrollmentApp(db(), { settings, log, adminToken: TEST_ADMIN_TOKEN });
    client = testClient(app, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return {
    db,
    internalErrors,
    /** The in-process client of this test's app. */
    client: () => client!,
    /** This test's app listening on a loopback port, started on first use and closed after the test. */
    http: async () => {
      server ??= await startServer(app!);
      return server;
    },
    get: async (path: string) => outcome(await client!.get(path)),
    post: async (path: string, json: unknown) => outcome(await client!.post(path, { json })),
  };
}
