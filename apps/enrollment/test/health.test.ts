import { testClient } from "unruffled/testing";
import { describe, expect, it } from "vitest";
import { createEnrollmentApp } from "../src/app.ts";
import { type Database, openDatabase } from "../src/db/index.ts";
import { useApi } from "./support/api.ts";
import { databaseSource, dialects } from "./support/test-databases.ts";

describe.each(dialects)("the service's health routes on %s", (dialect) => {
  const api = useApi(dialect);

  it("/readyz answers 200 with the database check passing, /livez and /startupz 200", async () => {
    expect(await api.get("/readyz")).toEqual({
      status: 200,
      body: { status: "pass", checks: { database: { status: "pass", durationMs: expect.any(Number) } } },
    });
    expect(await api.get("/livez")).toEqual({ status: 200, body: { status: "pass" } });
    expect(await api.get("/startupz")).toEqual({ status: 200, body: { status: "pass" } });
  });

  it("/readyz answers 503 once the database no longer answers; /livez stays 200", async () => {
    const source = await databaseSource(dialect);
    let database: Database | undefined;
    try {
      database = await openDatabase(await source.freshUrl());
      const client = testClient(
        createEnrollmentApp(database, { settings: { LOGGING: { level: "silent" } } }),
      );
      expect((await client.get("/readyz")).status).toBe(200);
      await database.close();
      const readiness = await client.get("/readyz");
      expect([readiness.status, readiness.json()]).toEqual([
        503,
        {
          status: "fail",
          checks: { database: { status: "fail", durationMs: expect.any(Number), error: "Error" } },
        },
      ]);
      expect((await client.get("/livez")).status).toBe(200);
    } finally {
      await source.close();
    }
  });
});
