import { createApp } from "unruffled";
import { PlainTextResponse } from "unruffled/http";
import { endpoint, path } from "unruffled/route";
import { startServer } from "unruffled/testing";
import { describe, expect, it } from "vitest";

const hello = endpoint({ returns: PlainTextResponse, handler: () => new PlainTextResponse("Hello") });

describe("startServer(app)", () => {
  it("refuses to start an app that is listening already, and starts it again once closed", async () => {
    const app = createApp({ routes: [path("/hello", { endpoint: hello })] });
    const first = await startServer(app);
    try {
      const refused = await startServer(app).catch((error: unknown) => error);
      expect((refused as Error).message).toBe("The app is already listening; close() it first");
      expect(await (await first.fetch("/hello")).text()).toBe("Hello");
    } finally {
      await first.close();
    }
    const second = await startServer(app);
    try {
      expect(await (await second.fetch("/hello")).text()).toBe("Hello");
    } finally {
      await second.close();
    }
  });
});
