import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, ROOT, runCli } from "./support/cli-process.ts";

const USAGE = "Usage: unruffled routes <app module> [--export <name>]\n";

describe("unruffled routes", () => {
  it("prints method, path, name and parameters by source of every route", async () => {
    expect(await runCli("routes", "packages/unruffled/test/cli/fixtures/shop-app.ts")).toEqual({
      code: 0,
      stdout: [
        "METHOD      PATH              NAME          PARAMETERS",
        "GET         /hello            hello         -",
        "GET         /items            list_items    query: page, size, tag",
        "POST        /items            create_item   json: id, title",
        "GET         /items/{item_id}  get_item      path: item_id; header: X-Token; cookie: session",
        "PUT, PATCH  /items/{item_id}  replace_item  path: item_id; json: id, title",
        "POST        /upload           upload_cv     form: title; file: cv",
        "POST        /sign-up          sign_up       form: name, age",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("lists WebSocket routes after the HTTP ones, as WS, with the parameters of their upgrade", async () => {
    expect(await runCli("routes", join(FIXTURES, "chat-app.ts"))).toEqual({
      code: 0,
      stdout: [
        "METHOD  PATH               NAME                   PARAMETERS",
        "GET     /hello             get_hello              -",
        "WS      /live/chat/{room}  chat                   path: room; query: nick; header: lang",
        "WS      /live/ticker       websocket_live_ticker  -",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("calls an exported factory, even an async one", async () => {
    const outcome = await runCli("routes", join(FIXTURES, "factory-app.ts"), "--export", "makeApp");
    expect(outcome).toEqual({
      code: 0,
      stdout: "METHOD  PATH    NAME       PARAMETERS\nGET     /hello  get_hello  -\n",
      stderr: "",
    });
  });

  it("takes the default export over the export app, calling a sync factory, and --export app when asked", async () => {
    const module = join(FIXTURES, "default-and-app.ts");
    expect([await runCli("routes", module), await runCli("routes", module, "--export", "app")]).toEqual([
      {
        code: 0,
        stdout: "METHOD  PATH           NAME          PARAMETERS\nGET     /from-default  from_default  -\n",
        stderr: "",
      },
      {
        code: 0,
        stdout: "METHOD  PATH       NAME      PARAMETERS\nGET     /from-app  from_app  -\n",
        stderr: "",
      },
    ]);
  });

  it("prints a ValueError naming the endpoint and the parameter, without a stack, exit code 1", async () => {
    expect(await runCli("routes", join(FIXTURES, "bare-default-app.ts"))).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'unruffled routes: ValueError: endpoint "list_items" (GET /items), parameter "page" is a bare schema with a default. Give the default with a marker: page: p.Query(z.int(), { default: … }).\n',
    });
  });

  it("prints TypeHintRequired the same way", async () => {
    expect(await runCli("routes", join(FIXTURES, "untyped-app.ts"))).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'unruffled routes: TypeHintRequired: endpoint "search" (GET /search), parameter "q" has no schema. Give its type with a marker: q: p.Query(z.string()).\n',
    });
  });

  it("prints two routes for one method and path as a ValueError, in one line, exit code 1", async () => {
    expect(await runCli("routes", join(FIXTURES, "duplicate-route-app.ts"))).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'unruffled routes: ValueError: The routes "list_items" and "list_items_again" both answer GET /items; give each route its own path or method.\n',
    });
  });

  it("names what a module without an app exports", async () => {
    const module = join(FIXTURES, "no-app.ts");
    expect(await runCli("routes", module)).toEqual({
      code: 2,
      stdout: "",
      stderr: `${module} has no app as a default export or an export "app" (it exports: helper, port). Export the value of createApp(...).\n${USAGE}`,
    });
  });

  it("says which module it cannot find", async () => {
    expect(await runCli("routes", "src/nowhere.ts")).toEqual({
      code: 2,
      stdout: "",
      stderr: `Cannot find the app module ${join(ROOT, "src/nowhere.ts")}.\n${USAGE}`,
    });
  });

  it("asks for exactly one module", async () => {
    expect(await runCli("routes")).toEqual({ code: 2, stdout: "", stderr: `Give one app module.\n${USAGE}` });
  });
});
