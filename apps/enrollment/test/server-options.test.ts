import { describe, expect, it } from "vitest";
import { appOptions, serverOptions } from "../src/server-options.ts";

describe("server options", () => {
  it("default to port 8000 on loopback, one process and a 10 s shutdown", () => {
    expect(serverOptions([], {})).toEqual({
      port: 8000,
      host: "127.0.0.1",
      workers: 1,
      shutdownTimeoutMs: 10_000,
      drainDelayMs: undefined,
      corsOrigins: [],
      trustedProxies: undefined,
    });
  });

  it("come from the environment, and --workers on the command line wins over WORKERS", () => {
    const env = {
      PORT: "0",
      HOST: "0.0.0.0",
      WORKERS: "3",
      SHUTDOWN_TIMEOUT_MS: "2500",
      DRAIN_DELAY_MS: "3000",
      TRUSTED_PROXIES: "10.0.0.0/8, loopback",
      CORS_ORIGINS: "https://app.example.com, https://admin.example.com:8443",
    };
    expect(serverOptions([], env)).toEqual({
      port: 0,
      host: "0.0.0.0",
      workers: 3,
      shutdownTimeoutMs: 2_500,
      drainDelayMs: 3_000,
      corsOrigins: ["https://app.example.com", "https://admin.example.com:8443"],
      trustedProxies: "10.0.0.0/8, loopback",
    });
    expect(serverOptions([], { CORS_ORIGINS: " * " }).corsOrigins).toBe("*");
    expect(serverOptions([], { TRUSTED_PROXIES: "1" }).trustedProxies).toBe(1);
    expect(serverOptions(["--workers", "2"], env).workers).toBe(2);
    expect(serverOptions(["--workers=4"], env).workers).toBe(4);
  });

  it("refuse an argument other than --workers, naming it, instead of ignoring it", () => {
    const told =
      "the service takes --workers N; the port, host and other settings come from the environment (PORT=9000 npm start).";
    expect(() => serverOptions(["--port", "9000"], {})).toThrow(`Unknown argument "--port": ${told}`);
    expect(() => serverOptions(["--workers", "2", "--wokers=3"], {})).toThrow(
      `Unknown argument "--wokers=3": ${told}`,
    );
    expect(() => serverOptions(["serve"], {})).toThrow(`Unknown argument "serve": ${told}`);
  });

  it("name the value that is wrong", () => {
    expect(() => serverOptions(["--workers", "0"], {})).toThrow(
      '--workers must be a whole number from 1 to 1024, got "0"',
    );
    expect(() => serverOptions(["--workers"], {})).toThrow(
      '--workers must be a whole number from 1 to 1024, got ""',
    );
    expect(() => serverOptions([], { WORKERS: "two" })).toThrow(
      '--workers must be a whole number from 1 to 1024, got "two"',
    );
    expect(() => serverOptions([], { PORT: "70000" })).toThrow(
      'PORT must be a whole number from 0 to 65535, got "70000"',
    );
    expect(() => serverOptions([], { SHUTDOWN_TIMEOUT_MS: "-1" })).toThrow(
      'SHUTDOWN_TIMEOUT_MS must be a whole number from 0 to 3600000, got "-1"',
    );
    expect(() => serverOptions([], { CORS_ORIGINS: "https://app.example.com/" })).toThrow(
      'CORS_ORIGINS: cors(): "https://app.example.com/" is not an origin: write scheme://host[:port], without a path; did you mean "https://app.example.com"?',
    );
  });

  it("give the app's own part alone to unruffled serve, which takes the port and host itself", () => {
    const env = {
      PORT: "not a port",
      DRAIN_DELAY_MS: "2500",
      TRUSTED_PROXIES: "1",
      CORS_ORIGINS: "https://app.example.com",
    };
    expect(appOptions(env)).toEqual({
      drainDelayMs: 2_500,
      corsOrigins: ["https://app.example.com"],
      trustedProxies: 1,
    });
    expect(() => appOptions({ DRAIN_DELAY_MS: "soon" })).toThrow(
      'DRAIN_DELAY_MS must be a whole number from 0 to 3600000, got "soon"',
    );
  });
});
