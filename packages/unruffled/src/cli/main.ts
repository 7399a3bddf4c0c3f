import { TypeHintRequired, ValueError } from "../errors.ts";
import { fsPromises } from "../node-builtins.ts";
import { clientCommand } from "./client.ts";
import { type CliCommand, CliFailure, type CliIo, CliUsageError } from "./command.ts";
import { openapiCommand } from "./openapi.ts";
import { routesCommand } from "./routes.ts";
import { serveCommand } from "./serve.ts";

/** Every subcommand, by name. One file per command. */
export const COMMANDS: readonly CliCommand[] = [openapiCommand, clientCommand, serveCommand, routesCommand];

/**
 * Runs `unruffled <command> [options]` (or `unruffled --version`) and resolves to the exit code:
 * 0 on success, 2 for a wrong command line, 1 when the command failed.
 *
 * @example process.exitCode = await runCli(process.argv.slice(2), nodeIo());
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === "help" || name === "--help" || name === "-h") {
    await io.write(helpText());
    return 0;
  }
  // No command is a wrong command line: told on standard error like the others, then the usage.
  if (name === undefined) {
    await io.error(`Give a command.\n\n${helpText()}`);
    return 2;
  }
  if (name === "--version") {
    await io.write(`${await packageVersion()}\n`);
    return 0;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) {
    await io.error(`Unknown command "${name}".\n\n${helpText()}`);
    return 2;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof CliUsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      await io.error(`${(error as Error).message}\nUsage: ${command.usage}\n`);
      return 2;
    }
    // A definition error names the endpoint and the parameter; the stack would only hide that.
    if (error instanceof ValueError || error instanceof TypeHintRequired) {
      await io.error(`unruffled ${name}: ${error.name}: ${error.message}\n`);
      return 1;
    }
    if (error instanceof CliFailure) {
      await io.error(`unruffled ${name}: ${error.message}\n`);
      return 1;
    }
    await io.error(
      `unruffled ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 1;
  }
}

function helpText(): string {
  const lines = COMMANDS.map(
    (command) => `  ${command.name.padEnd(10)} ${command.summary}\n    ${command.usage}`,
  );
  return `Usage: unruffled <command> [options]\n       unruffled --version\n\nCommands:\n${lines.join("\n")}\n`;
}

/** The version of the package this command belongs to (src/cli/ and dist/cli/ are two levels down). */
async function packageVersion(): Promise<string> {
  const manifest = await fsPromises().readFile(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(manifest) as { version: string }).version;
}

/** Standard output and error, each write resolved once flushed (stdout to a pipe is asynchronous). */
export function nodeIo(): CliIo {
  const writer = (stream: NodeJS.WriteStream) => (text: string) =>
    new Promise<void>((resolve, reject) => {
      stream.write(text, (error) => (error ? reject(error) : resolve()));
    });
  return { cwd: process.cwd(), write: writer(process.stdout), error: writer(process.stderr) };
}
