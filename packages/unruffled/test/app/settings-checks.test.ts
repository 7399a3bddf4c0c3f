// docs/settings.md: "Settings are checked when the app is built: an unknown LIMITS, LOGGING,
// RESPONSES, ERRORS or RATE_LIMITS key, or a value of the wrong kind, stops it with a TypeError
// that names the key."
import { createApp, type Settings } from "unruffled";
import { describe, expect, it } from "vitest";

function built(settings: Record<string, unknown>): () => void {
  return () => createApp({ settings: settings as Settings, routes: [] });
}

describe("settings checked when the app is built", () => {
  it.each([
    ["LIMITS", { body_sise: 1 }, 'Unknown LIMITS setting "body_sise"'],
    ["LOGGING", { levle: "info" }, 'Unknown LOGGING setting "levle"; use level, destination, access_log.'],
    ["RESPONSES", { validat: "off" }, 'Unknown RESPONSES setting "validat"; use validate.'],
    ["ERRORS", { fromat: "problem" }, 'Unknown ERRORS setting "fromat"; use format.'],
    ["RATE_LIMITS", { on_store_fail: "open" }, 'Unknown RATE_LIMITS setting "on_store_fail"'],
  ])("an unknown %s key is a TypeError naming it", (group, value, message) => {
    expect(built({ [group]: value })).toThrow(new TypeError(message));
  });

  it.each([
    [
      "LIMITS",
      { body_size: "64kb" },
      'The LIMITS setting "body_size" must be a positive whole number, got "64kb"',
    ],
    [
      "LOGGING",
      { access_log: "false" },
      'The LOGGING setting "access_log" must be true or false, got "false"',
    ],
    ["RESPONSES", { validate: true }, 'The RESPONSES setting "validate" must be "strict" or "off", got true'],
    [
      "ERRORS",
      { format: "rfc9457" },
      'The ERRORS setting "format" must be "detail" or "problem", got "rfc9457"',
    ],
    [
      "RATE_LIMITS",
      { legacy_headers: "yes" },
      'The RATE_LIMITS setting "legacy_headers" must be true or false',
    ],
  ])("a %s value of the wrong kind is a TypeError naming its key", (group, value, message) => {
    expect(built({ [group]: value })).toThrow(new TypeError(message));
  });

  it.each([
    ["LIMITS", 65536],
    ["LOGGING", "info"],
    ["RESPONSES", "strict"],
    ["ERRORS", true],
    ["RATE_LIMITS", null],
    ["LIMITS", [{ body_size: 1 }]],
  ])("%s given as %j instead of an object is a TypeError naming it", (group, value) => {
    expect(built({ [group]: value })).toThrow(
      new TypeError(
        `The ${group} setting must be an object of keys and values, got ${JSON.stringify(value)}`,
      ),
    );
  });
});

describe("audit-b: keys the framework does not read", () => {
  it("leaves any other upper-case key to the app, as given", () => {
    const smtp = { host: "mail.internal", port: 25 };
    const app = createApp({
      settings: { SMTP: smtp, FEATURE_SEARCH: true },
      routes: [],
    });
    expect([app.settings.SMTP, app.settings.FEATURE_SEARCH]).toEqual([smtp, true]);
  });
});

describe("a framework setting written in another case", () => {
  it.each([
    ["limits", "LIMITS"],
    ["Logging", "LOGGING"],
    ["debug", "DEBUG"],
    ["proxies", "PROXIES"],
    ["rate_limits", "RATE_LIMITS"],
  ])("%s is a TypeError naming the key it would be (it was silently ignored)", (given, meant) => {
    expect(built({ [given]: {} })).toThrow(
      new TypeError(
        `The setting "${given}" is not read: the framework's settings are upper case (${meant}).`,
      ),
    );
  });

  it("leaves the app's own lower-case keys alone", () => {
    const app = createApp({ settings: { smtp: { port: 25 } }, routes: [] });
    expect(app.settings.smtp).toEqual({ port: 25 });
  });
});
