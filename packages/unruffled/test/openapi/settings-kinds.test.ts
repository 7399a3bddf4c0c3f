// OPENAPI settings of the wrong kind, or with an unknown key, stop the app when it is built, as
// every other setting group does (docs/settings.md): a string "true" from the environment or a
// misspelt key would otherwise leave the pages off without a word.
import { createApp, type Settings } from "unruffled";
import { describe, expect, it } from "vitest";

const info = { title: "Shop", version: "1.0.0" };
const build = (OPENAPI: unknown) => () => createApp({ settings: { OPENAPI } as Settings, routes: [] });

describe("OPENAPI settings of the wrong kind", () => {
  it.each([
    [{ info, allow_public: "true" }, 'The OPENAPI setting "allow_public" must be true or false, got "true"'],
    [{ info, allowPublic: true }, 'Unknown OPENAPI setting "allowPublic"'],
    [
      { info, servers: "/" },
      'The OPENAPI setting "servers" must be a list of objects with a string url, got "/"',
    ],
    [
      { info, tags: "courses" },
      'The OPENAPI setting "tags" must be a list of objects with a string name, got "courses"',
    ],
    [
      { info, tags: [{ description: "no name" }] },
      'The OPENAPI setting "tags" must be a list of objects with a string name, got [{"description":"no name"}]',
    ],
    [
      { info, externalDocs: "https://example.edu" },
      'The OPENAPI setting "externalDocs" must be an object with a string url, got "https://example.edu"',
    ],
    [
      { info: { title: 3, version: "1" } },
      'The OPENAPI setting "info" must be an object with a string title and version, got {"title":3,"version":"1"}',
    ],
    [true, "The OPENAPI setting must be an object of keys and values, got true"],
  ])("refuses %j when the app is built", (settings, message) => {
    expect(build(settings)).toThrow(new TypeError(message));
  });

  it("takes every key of the right kind, and fields inside them that OpenAPI does not define", () => {
    const app = build({
      info: { ...info, owner: "the shop team" },
      servers: [{ url: "/" }],
      tags: [{ name: "items", colour: "blue" }],
      externalDocs: { url: "https://example.edu" },
      allow_public: false,
    })();
    expect(app.openapi().info).toEqual(info);
  });
});
