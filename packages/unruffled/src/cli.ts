#!/usr/bin/env node
// The `unruffled` command. Exits once the command is done, even if the imported app left a
// database pool or a timer open.
import { nodeIo, runCli } from "./cli/main.ts";

process.exit(await runCli(process.argv.slice(2), nodeIo()));
