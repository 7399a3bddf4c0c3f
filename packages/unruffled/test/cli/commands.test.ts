// Every command takes the app module the same way, so that one learnt is all learnt.
import { expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/main.ts";

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
