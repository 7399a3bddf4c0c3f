import { defineConfig } from "vitest/config";

// "source" resolves workspace packages to their TypeScript sources, so tests need no build step.
// Vitest passes these to Node for require() too: an "import" entry would load pg-pool's ESM build.
const conditions = ["source"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["source"] } },
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "apps/*/test/**/*.test.ts",
      "tools/*/test/**/*.test.ts",
      "docs/**/*.test.ts",
      "bench/**/*.test.ts",
    ],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One throwaway PostgreSQL cluster for the whole run; each test file makes its own databases.
    globalSetup: ["apps/enrollment/test/support/postgres.ts"],
    // No test sees the service variables of the caller's shell (ENROLL_ADMIN_TOKEN, DATABASE_URL, …).
    setupFiles: ["apps/enrollment/test/support/caller-environment.ts"],
  },
});
