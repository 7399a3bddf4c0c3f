// The tests do not depend on the caller's shell: a developer of the service who exports its
// variables (ENROLL_ADMIN_TOKEN, DATABASE_URL, …) can still run them (support/caller-environment.ts).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runToEnd } from "process-support";
import { expect, it } from "vitest";
import { startService } from "./reliability/support/service-process.ts";
import { SERVICE_VARIABLES } from "./support/service-variables.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const THIS_FILE = "apps/enrollment/test/caller-environment.test.ts";

it("starts every test file without the service's variables, and the services it starts inherit none", async () => {
  for (const name of SERVICE_VARIABLES) expect(process.env[name], name).toBeUndefined();
  const service = await startService({ databaseUrl: ":memory:" });
  try {
    // Without a token on an in-memory database, the write endpoints are closed: none was inherited.
    expect(service.output()).toContain("student-create and course-create closed: set ENROLL_ADMIN_TOKEN");
  } finally {
    service.signal("SIGTERM");
    await service.exited;
  }
});

it("passes when the caller's shell exports the service's variables", { timeout: 180_000 }, async () => {
  const outcome = await runToEnd(
    join(ROOT, "node_modules/.bin/vitest"),
    ["run", THIS_FILE, "-t", "starts every test file without"],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ENROLL_ADMIN_TOKEN: "xyz",
        DATABASE_URL: "/nonexistent/enrollment.db",
        CORS_ORIGINS: "https://caller.example",
        LOG_LEVEL: "debug",
      },
    },
  );
  expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the colours of vitest's report.
  expect(outcome.stdout.replace(/\u001b\[\d+m/g, "")).toMatch(/Tests +1 passed \| 1 skipped/);
});
