import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import type { OpenApiDocument } from "unruffled/openapi";
import { endpoint, path } from "unruffled/route";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { securedApp } from "../security/secured-app.ts";
import { envelopeValidationHandler, fixtureApp } from "./fixture-app.ts";
import { extrasApp } from "./fixture-extras-app.ts";
import { REPOSITORY_ROOT } from "./support/repository.ts";
import { hasSampleService, openSampleService } from "./support/sample-service.ts";

const run = promisify(execFile);

/** Routes whose placeholders the endpoint does not all read, one of them the rest of the path. */
function placeholdersApp() {
  const plain = endpoint({ returns: JsonResponse, handler: () => new JsonResponse({}) });
  const file = endpoint({
    params: { file_path: z.string() },
    returns: JsonResponse,
    handler: () => new JsonResponse({}),
  });
  return createApp({
    routes: [
      path("/items/{ids}", { endpoint: plain, name: "read_items" }),
      path("/files/{file_path:path}", { endpoint: file, name: "read_file" }),
      path("/raw/{rest:path}", { endpoint: plain, name: "raw" }),
    ],
  });
}
const REDOCLY = join(REPOSITORY_ROOT, "node_modules/@redocly/cli/bin/cli.js");

const documents: Record<string, () => Promise<OpenApiDocument>> = {
  "the fixture app (default 422)": async () => fixtureApp().openapi(),
  "the fixture app (200 envelope for validation errors)": async () =>
    fixtureApp({ exceptionHandlers: [envelopeValidationHandler] }).openapi(),
  "an app with every kind of security scheme": async () => securedApp().openapi(),
  "an app with a placeholder no parameter reads and a {name:path} placeholder": async () =>
    placeholdersApp().openapi(),
  "an app with webhooks": async () => extrasApp().openapi(),
};
if (hasSampleService) {
  documents["the enrollment sample service"] = async () => {
    const service = await openSampleService();
    try {
      return service.app.openapi();
    } finally {
      await service.close();
    }
  };
}

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "unruffled-openapi-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe.each(Object.keys(documents))("the document of %s", (name) => {
  it("passes the OpenAPI 3.1 schema validator", async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(await documents[name]!())));
    expect(result).toEqual({ valid: true });
  });

  it("passes `redocly lint --extends=spec` with no error and no warning", async () => {
    const file = join(folder, `${name.replace(/\W+/g, "-")}.json`);
    await writeFile(file, JSON.stringify(await documents[name]!()));
    const { stdout } = await run(
      process.execPath,
      [REDOCLY, "lint", file, "--extends=spec", "--format=json"],
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_COLOR: "1" } },
    );
    const report = JSON.parse(stdout);
    expect({ totals: report.totals, problems: report.problems }).toEqual({
      totals: { errors: 0, warnings: 0, ignored: 0 },
      problems: [],
    });
  });
});
