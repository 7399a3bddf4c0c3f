// Vitest's setup file (vitest.config.ts). The service reads its configuration from the environment;
// a developer's shell that exports some of it (an ENROLL_ADMIN_TOKEN, a DATABASE_URL for a local run)
// must change neither what the tests see nor what the services they start inherit: every test file
// starts without them, and a test sets what it means to. (TEST_DATABASE_URL, which names the tests'
// own cluster, stays.)
import { SERVICE_VARIABLES } from "./service-variables.ts";

for (const name of SERVICE_VARIABLES) delete process.env[name];
