import { mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import type { App } from "unruffled";
import type { OpenApiDocument } from "unruffled/openapi";
import { type RunningServer, startServer } from "unruffled/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { launchChromium, noChromium } from "../../support/chromium.ts";
import { envelopeValidationHandler, fixtureApp } from "../fixture-app.ts";
import { extrasApp } from "../fixture-extras-app.ts";
import { REPOSITORY_ROOT } from "../support/repository.ts";
import { hasSampleService, openSampleService, SAMPLE_ADMIN_TOKEN } from "../support/sample-service.ts";

const ARTIFACTS = join(REPOSITORY_ROOT, "test-artifacts");
// Chromium renders slowly on a busy machine: a page gets minutes, never a race against the clock.
vi.setConfig({ testTimeout: 180_000 });

/** What a page did that it should not: requests that would leave the machine, console errors. */
interface PageProblems {
  externalRequests: string[];
  consoleErrors: string[];
}

/** The labels Redoc shows for an operation: its summary, else its operationId. */
function operationLabels(document: OpenApiDocument): string[] {
  return Object.values(document.paths).flatMap((item) =>
    Object.values(item).map((operation) => operation!.summary ?? operation!.operationId),
  );
}

/** Swagger UI shows an operation once under each of its tags, or once under "default". */
function swaggerBlockCount(document: OpenApiDocument): number {
  return Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .reduce((count, operation) => count + Math.max(1, operation!.tags?.length ?? 0), 0);
}

describe.skipIf(noChromium)("the documentation pages in Chromium", () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let context: BrowserContext;
  const externalRequests: string[] = [];

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    context = browser.context;
    // Every request that is not to the test server is refused and remembered.
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === "127.0.0.1") return route.continue();
      externalRequests.push(url.href);
      return route.abort();
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function open(server: RunningServer, page: string, problems: PageProblems): Promise<Page> {
    const tab = await context.newPage();
    tab.on("console", (message) => {
      if (message.type() === "error") problems.consoleErrors.push(message.text());
    });
    tab.on("pageerror", (error) => problems.consoleErrors.push(error.message));
    tab.on("request", (request) => {
      const url = new URL(request.url());
      if (url.protocol !== "data:" && url.protocol !== "blob:" && url.hostname !== "127.0.0.1") {
        problems.externalRequests.push(url.href);
      }
    });
    const response = await tab.goto(`${server.url}${page}`);
    expect(response?.status()).toBe(200);
    return tab;
  }

  const apps: [string, () => Promise<{ app: App; close(): Promise<void> }>][] = [
    [
      "fixture",
      async () => ({
        app: fixtureApp({ exceptionHandlers: [envelopeValidationHandler] }),
        close: async () => {},
      }),
    ],
  ];
  if (hasSampleService) apps.push(["enrollment", openSampleService]);

  describe.each(apps)("of the %s app", (name, build) => {
    let server: RunningServer;
    let openapi: OpenApiDocument;
    let closeApp: () => Promise<void>;

    beforeAll(async () => {
      const { app, close } = await build();
      closeApp = close;
      openapi = app.openapi();
      server = await startServer(app);
    });
    afterAll(async () => {
      await server?.close();
      await closeApp?.();
    });

    it("renders every operation in Swagger UI with no console error and no request off the machine", async () => {
      const problems: PageProblems = { externalRequests: [], consoleErrors: [] };
      const tab = await open(server, "/openapi/docs", problems);
      const expected = swaggerBlockCount(openapi);
      await expect.poll(() => tab.locator(".opblock").count(), { timeout: 90_000 }).toBe(expected);
      await tab.locator(".info .title").filter({ hasText: openapi.info.title }).waitFor();
      await tab.screenshot({ path: join(ARTIFACTS, `swagger-ui-${name}.png`) });
      await tab.close();
      expect(problems).toEqual({ externalRequests: [], consoleErrors: [] });
    });

    it.runIf(name === "fixture")(
      "offers a file input for a File parameter in Swagger UI's try-it-out form",
      async () => {
        const problems: PageProblems = { externalRequests: [], consoleErrors: [] };
        const tab = await open(server, "/openapi/docs", problems);
        const block = tab.locator("#operations-api-upload_documents");
        await block.locator(".opblock-summary").click();
        await block.locator(".try-out__btn").click();
        await block.locator('input[type="file"]').first().waitFor();
        expect(await block.locator('input[type="file"]').count()).toBe(1);
        // A list of files gets one file input per item the user adds.
        await block.getByRole("button", { name: "Add string item" }).click();
        expect(await block.locator('input[type="file"]').count()).toBe(2);
        await block.screenshot({ path: join(ARTIFACTS, "swagger-ui-upload-form.png") });
        await tab.close();
        expect(problems).toEqual({ externalRequests: [], consoleErrors: [] });
      },
    );

    it.runIf(name === "fixture")(
      "renders both pages when reached with a trailing slash, at the page's own address",
      async () => {
        const problems: PageProblems = { externalRequests: [], consoleErrors: [] };
        const swagger = await open(server, "/openapi/docs/", problems);
        await expect
          .poll(() => swagger.locator(".opblock").count(), { timeout: 90_000 })
          .toBe(swaggerBlockCount(openapi));
        expect(swagger.url()).toBe(`${server.url}/openapi/docs`);
        await swagger.close();
        const redoc = await open(server, "/openapi/redoc/", problems);
        await redoc
          .locator("h2")
          .filter({ hasText: operationLabels(openapi)[0]! })
          .first()
          .waitFor();
        expect(redoc.url()).toBe(`${server.url}/openapi/redoc`);
        await redoc.close();
        expect(problems).toEqual({ externalRequests: [], consoleErrors: [] });
      },
    );

    it("renders every operation in Redoc with no console error and no request off the machine", async () => {
      const problems: PageProblems = { externalRequests: [], consoleErrors: [] };
      const tab = await open(server, "/openapi/redoc", problems);
      // Redoc heads each operation with its label (a deprecated one adds a "Deprecated" badge).
      const missingLabels = async () => {
        const headings = await tab.locator("h2").allInnerTexts();
        return operationLabels(openapi).filter(
          (label) => !headings.some((heading) => heading === label || heading.startsWith(`${label} `)),
        );
      };
      await expect.poll(missingLabels, { timeout: 90_000 }).toEqual([]);
      await tab.screenshot({ path: join(ARTIFACTS, `redoc-${name}.png`) });
      await tab.close();
      expect(problems).toEqual({ externalRequests: [], consoleErrors: [] });
    });
  });

  describe("of an app with webhooks and callbacks", () => {
    let server: RunningServer;
    const app = extrasApp({ OPENAPI: { info: { title: "Extras", version: "1.0.0" }, allow_public: true } });
    const openapi = app.openapi() as any;
    beforeAll(async () => {
      server = await startServer(app);
    });
    afterAll(async () => {
      await server?.close();
    });

    it("shows the webhook beside the operations in Swagger UI, and a route's callbacks when it is opened", async () => {
      const problems: PageProblems = { externalRequests: [], consoleErrors: [] };
      const tab = await open(server, "/openapi/docs", problems);
      // Swagger UI lists a webhook as one more operation, under "Webhooks".
      await expect
        .poll(() => tab.locator(".opblock").count(), { timeout: 90_000 })
        .toBe(swaggerBlockCount(openapi) + 1);
      await tab.locator(".opblock").filter({ hasText: "new-subscription" }).waitFor();
      const invoices = tab.locator("#operations-default-create_invoice");
      await invoices.locator(".opblock-summary").click();
      await invoices.getByText("Callbacks").first().click();
      await invoices.getByText("invoice-paid").first().waitFor();
      await tab.screenshot({ path: join(ARTIFACTS, "swagger-ui-extras.png"), fullPage: true });
      await tab.close();
      expect(problems).toEqual({ externalRequests: [], consoleErrors: [] });
    });

    it("shows the webhook's summary beside the operations in Redoc", async () => {
      const problems: PageProblems = { externalRequests: [], consoleErrors: [] };
      const tab = await open(server, "/openapi/redoc", problems);
      const headings = () => tab.locator("h2").allInnerTexts();
      await expect
        .poll(
          async () => (await headings()).filter((heading) => heading.startsWith("New subscription")).length,
          {
            timeout: 90_000,
          },
        )
        .toBe(1);
      await tab.screenshot({ path: join(ARTIFACTS, "redoc-extras.png") });
      await tab.close();
      expect(problems).toEqual({ externalRequests: [], consoleErrors: [] });
    });
  });

  describe.runIf(hasSampleService)("a page on another origin", () => {
    let api: RunningServer;
    let closeApi: () => Promise<void>;
    const pages: Server[] = [];
    let allowedPage: string;
    let otherPage: string;

    // The page calls the API as a browser app would: a GET, then a JSON POST with the admin token,
    // which needs a preflight.
    const script = (apiUrl: string) => `
      const outcome = {};
      try {
        const list = await fetch("${apiUrl}/api/enroll/student-list?size=1");
        outcome.list = [list.status, await list.json()];
        const created = await fetch("${apiUrl}/api/enroll/student-create", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer ${SAMPLE_ADMIN_TOKEN}" },
          body: JSON.stringify({ name: "Ann", email: "ann@example.edu", age: 20, student_id: "S1" }),
        });
        const body = await created.json();
        outcome.created = [created.status, body.code, body.data.name, created.headers.get("x-request-id") !== null];
      } catch (error) {
        outcome.error = error.name + ": " + error.message;
      }
      window.outcome = outcome;`;

    /** Serves one HTML page on a port of its own: another origin than the API's. */
    async function servePage(html: () => string): Promise<string> {
      const page = createServer((_request, response) => {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html());
      });
      pages.push(page);
      await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    }

    beforeAll(async () => {
      const page = () =>
        `<!doctype html><title>shop</title><script type="module">${script(api.url)}</script>`;
      allowedPage = await servePage(page);
      otherPage = await servePage(page);
      const { app, close } = await openSampleService([allowedPage]);
      closeApi = close;
      api = await startServer(app);
    });
    afterAll(async () => {
      await api?.close();
      await closeApi?.();
      for (const page of pages) page.close();
    });

    async function outcomeOf(origin: string): Promise<unknown> {
      const tab = await context.newPage();
      await tab.goto(`${origin}/`);
      await tab.waitForFunction(() => (globalThis as { outcome?: unknown }).outcome !== undefined);
      const outcome = await tab.evaluate(() => (globalThis as { outcome?: unknown }).outcome);
      await tab.close();
      return outcome;
    }

    it("loads the enrollment API from a page on an allowed origin, a JSON POST included", async () => {
      expect(await outcomeOf(allowedPage)).toEqual({
        list: [200, { code: 0, message: "success", data: [] }],
        created: [200, 0, "Ann", true],
      });
    });

    it("keeps the API's answers from a page on an origin it does not allow", async () => {
      expect(await outcomeOf(otherPage)).toEqual({ error: "TypeError: Failed to fetch" });
    });
  });

  it("made no request off the machine in any page", () => {
    expect(externalRequests).toEqual([]);
  });
});
