import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { get, type ServiceProcess, startService } from "./support/service-process.ts";

// Four instances of the service started together on an empty PostgreSQL database: the advisory lock
// lets one apply the migrations while the others wait, then find the schema up to date.
describe("four instances starting at once on an empty PostgreSQL database", () => {
  let server: TestPostgres;
  let url: string;
  let services: ServiceProcess[] = [];

  beforeAll(async () => {
    server = await startTestPostgres();
    url = await server.createDatabase();
  });

  afterAll(async () => {
    for (const service of services) if (service.child.exitCode === null) service.signal("SIGKILL");
    await server?.stop();
  });

  it("apply the migrations exactly once, and all four start", async () => {
    services = await Promise.all(
      Array.from({ length: 4 }, () => startService({ databaseUrl: url, env: { LOG_LEVEL: "debug" } })),
    );
    for (const service of services) {
      expect((await get(service.port, "/api/enroll/student-list?size=1"))?.status).toBe(200);
    }
    const applied = services.flatMap((service) =>
      service
        .output()
        .split("\n")
        .filter((line) => line.includes('"msg":"Applied migrations"'))
        .map((line) => (JSON.parse(line) as { migrations: string[] }).migrations),
    );
    expect(applied).toEqual([["001-initial-schema", "002-email-any-case"]]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query("select name from kysely_migration order by name");
      expect(rows.map((row) => row.name)).toEqual(["001-initial-schema", "002-email-any-case"]);
    } finally {
      await client.end();
    }
    for (const service of services) service.signal("SIGTERM");
    expect(await Promise.all(services.map((service) => service.exited))).toEqual([0, 0, 0, 0]);
  });
});
