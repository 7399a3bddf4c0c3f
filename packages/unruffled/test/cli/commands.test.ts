// Every command takes the app module the same way, so that one learnt is all learnt.
import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/main.ts";
import { runCli } from "./support/cli-process.ts";

it("takes the app module first, then --export <name>, in every command", () => {
  const sameWay = (usage: string, name: string) =>
    usage.startsWith(`unruffled ${name} <app module> [--export <name>]`);
  // A command that reads its module otherwise shows up here by its usage.
  expect(COMMANDS.map(({ name, usage }) => (sameWay(usage, name) ? name : usage))).toEqual([
    "openapi",
    "client",
    "serve",
    "routes",
  ]);
});

it("prints the package's version for --version, and nothing else", async () => {
  const manifest = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8"));
  expect(await runCli("--version")).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: "" });
});

const HELP = [
  "Usage: unruffled <command> [options]",
  "       unruffled --version",
  "",
  "Commands:",
  ...COMMANDS.flatMap(({ name, summary, usage }) => [`  ${name.padEnd(10)} ${summary}`, `    ${usage}`]),
  "",
].join("\n");

it("prints the commands for --help, each with its usage, and exits 0", async () => {
  expect(COMMANDS.map(({ name }) => name).sort()).toEqual(["client", "openapi", "routes", "serve"]);
  expect(await runCli("--help")).toEqual({ code: 0, stdout: HELP, stderr: "" });
});

it("says which command it does not know, then the usage, exit code 2", async () => {
  expect(await runCli("server", "app.ts")).toEqual({
    code: 2,
    stdout: "",
    stderr: `Unknown command "server".\n\n${HELP}`,
  });
});

it("asks for a command when given none, then the usage, on standard error, exit code 2", async () => {
  expect(await runCli()).toEqual({ code: 2, stdout: "", stderr: `Give a command.\n\n${HELP}` });
});
