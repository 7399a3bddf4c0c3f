// The offline Swagger UI's Authorize button, in a real browser: a token entered there is sent by
// "Try it out", so a protected operation answers 401 before and 200 after.
import { createApp } from "unruffled";
import { JsonResponse } from "unruffled/http";
import { endpoint, p, path } from "unruffled/route";
import { httpBearer } from "unruffled/security";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { launchChromium, noChromium } from "../support/chromium.ts";

// Chromium is slow on a busy machine: a page gets minutes, never a race against the clock.
vi.setConfig({ testTimeout: 180_000 });

const TOKEN = "token-for-ann";
const bearer = httpBearer({ verify: (token) => (token === TOKEN ? { name: "ann" } : null) });

const app = createApp({
  settings: { OPENAPI: { info: { title: "Secured", version: "1.0.0" }, allow_public: true } },
  routes: [
    path("/me", {
      name: "read_me",
      endpoint: endpoint({
        summary: "Who am I",
        params: { user: p.Security(bearer) },
        returns: JsonResponse,
        handler: (_request, { user }) => new JsonResponse({ name: user.name }),
      }),
    }),
  ],
});

describe.skipIf(noChromium)("Swagger UI's Authorize button", () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let server: RunningServer;

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startServer(app);
  });
  afterAll(async () => {
    await server?.close();
    await browser?.close();
  });

  it("sends the token it was given with Try it out: 401 before, 200 after", async () => {
    const tab = await browser.context.newPage();
    const errors: string[] = [];
    tab.on("pageerror", (error) => errors.push(error.message));
    await tab.goto(`${server.url}/openapi/docs`);
    const operation = tab.locator("#operations-default-read_me");
    await operation.locator(".opblock-summary").click();
    await operation.locator(".try-out__btn").click();

    const execute = async () => {
      await operation.locator(".execute").click();
      // The table's first row is its heading ("Code"); the answer is the row of class "response".
      const status = operation.locator(".live-responses-table tr.response .response-col_status");
      await status.waitFor();
      const code = ((await status.textContent()) ?? "").trim();
      await operation.locator(".btn-clear").click();
      return code;
    };
    expect(await execute()).toBe("401");

    await tab.locator(".auth-wrapper .btn.authorize").click();
    await tab.locator("#auth-bearer-value").fill(TOKEN);
    await tab.getByRole("button", { name: "Apply credentials" }).click();
    await tab.locator(".btn-done").click();
    expect(await execute()).toBe("200");
    await tab.close();
    expect(errors).toEqual([]);
  });
});
