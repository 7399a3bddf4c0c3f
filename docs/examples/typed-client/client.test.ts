// The typed-client page's examples: the generated file is fresh, and the program prints what it shows.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { generateClient } from "unruffled";
import { startServer } from "unruffled/testing";
import { expect, it } from "vitest";
import { app } from "./app.ts";

const run = promisify(execFile);

it("is the client the example app generates", async () => {
  const onDisk = await readFile(new URL("./client.generated.ts", import.meta.url), "utf8");
  expect(onDisk).toBe(generateClient(app));
  // The page quotes these types.
  expect(onDisk).toContain(
    [
      "export interface ListItemsParams {",
      "  page?: number;",
      "  tag?: string[];",
      "}",
      "",
      "export type ListItemsResult =",
      '  | Answer<200, "application/json", Item[]>',
      '  | Answer<422, "application/json", HTTPValidationError>',
      "  | Unexpected;",
    ].join("\n"),
  );
});

it("calls every operation as the page says", async () => {
  const server = await startServer(app);
  try {
    const program = fileURLToPath(new URL("./use-client.ts", import.meta.url));
    const { stdout } = await run(process.execPath, ["--conditions=source", program], {
      env: { ...process.env, SHOP_URL: server.url },
    });
    expect(stdout.split("\n")).toEqual([
      "1 Kettle 2025-03-01T09:00:00.000Z",
      "422 at body.name",
      "512 bytes",
      "left: 6",
      "left: 4",
      "left: 2",
      "",
    ]);
  } finally {
    await server.close();
  }
});
