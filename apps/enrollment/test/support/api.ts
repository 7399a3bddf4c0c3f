import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeEach } from "vitest";
import { createEnrollmentApp } from "../../src/app.ts";
import type { DialectName } from "../../src/db/index.ts";
import { useFreshDatabase } from "./test-databases.ts";

/** The enrollment service over loopback HTTP, on a fresh database of one dialect for each test. */
export function useApi(dialect: DialectName, settings = {}) {
  const db = useFreshDatabase(dialect);
  const internalErrors: unknown[] = [];
  let server: RunningServer | undefined;
  beforeEach(async () => {
    await server?.close();
    internalErrors.length = 0;
    const log = { error: (details: Record<string, unknown>) => void internalErrors.push(details.err) };
    server = await startServer(createEnrollmentApp(db(), { settings, log }));
  });
  afterAll(async () => {
    await server?.close();
  });
  const call = async (path: string, init?: RequestInit) => {
    const response = await server!.fetch(path, init);
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: response.status, body };
  };
  return {
    db,
    server: () => server!,
    internalErrors,
    get: (path: string) => call(path),
    post: (path: string, body: unknown) =>
      call(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
  };
}
