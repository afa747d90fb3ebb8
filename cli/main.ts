import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { AppError, AppLoadError } from '../core/errors.js';
import { terminalSafe, terminalSafeBlock } from '../render/text/terminal-safe.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { processOutput, type Output } from './output.js';
import { makeInitCommand } from './init.js';
import { makeMcpCommand } from './mcp.js';
import { makeProfilesCommand } from './profiles.js';
import { makeReplayCommand } from './replay.js';
import { makeRoutesCommand } from './routes.js';
import { makeServeCommand } from './serve.js';
import { makeSnapshotCommand } from './snapshot.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

export function makeProgram(output: Output): Command {
  const program = new Command('app')
    .description('appkernel: a TypeScript dev server with a debug profiler')
    .version(pkg.version, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText(
      'after',
      `
Examples:
  $ app serve                          serve ./app.config.ts, or the demo app
  $ app routes                         list the routes in matching order
  $ app profiles list --status 4xx     the newest failing requests
  $ app profiles show latest --panel exception
  $ app replay <token> --diff          send a recorded request again and compare
  $ app init my-app                    start a new app in ./my-app`,
    );
  for (const command of [
    makeServeCommand(output),
    makeRoutesCommand(output),
    makeProfilesCommand(output),
    makeReplayCommand(output),
    makeSnapshotCommand(output),
    makeInitCommand(output),
    makeMcpCommand(output),
  ]) {
    program.addCommand(command);
  }
  exitOverrideDeep(program, output);
  return program;
}

function exitOverrideDeep(command: Command, output: Output): void {
  command.exitOverride();
  const helpWidth = output.helpWidth;
  command.configureOutput({
    writeOut: output.out,
    writeErr: output.err,
    outputError: (text, write) => write(commanderError(text)),
    ...(helpWidth === undefined ? {} : { getOutHelpWidth: () => helpWidth, getErrHelpWidth: () => helpWidth }),
  });
  command.showHelpAfterError('(run with --help for usage)');
  for (const sub of command.commands) exitOverrideDeep(sub, output);
}

const SUGGESTION = '\n(Did you mean ';

/**
 * commander's error line quotes the arguments as typed (an unknown option, a bad choice): it is
 * printed on one line, terminal-safe, but for the "(Did you mean ...?)" line commander adds, and
 * begins with "app:" as every other error of the CLI, not commander's "error:".
 */
function commanderError(text: string): string {
  const message = text.replace(/\n$/, '').replace(/^error: /, 'app: ');
  const at = message.lastIndexOf(SUGGESTION);
  return at === -1
    ? `${terminalSafe(message)}\n`
    : `${terminalSafe(message.slice(0, at))}\n${terminalSafe(message.slice(at + 1))}\n`;
}

/**
 * The topic of `app help <topic>` (or `app profiles help <topic>`) when no such command exists:
 * commander would print the whole help and leave out what was not found.
 */
function unknownHelpTopic(program: Command, args: string[]): string | null {
  let command = program;
  for (let i = 0; i < args.length; i++) {
    const named = (name: string) => command.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (args[i] === 'help' && command.commands.length > 0) {
      const topic = args[i + 1];
      return topic === undefined || topic.startsWith('-') || named(topic) ? null : topic;
    }
    const sub = named(args[i]);
    if (!sub) return null;
    command = sub;
  }
  return null;
}

/** Runs the CLI and returns the exit code; errors become one terminal-safe line on stderr, never a stack trace. */
export async function runCli(argv: string[], output: Output = processOutput()): Promise<number> {
  const program = makeProgram(output);
  const topic = unknownHelpTopic(program, argv.slice(2));
  if (topic !== null) {
    output.err(`app: unknown command '${terminalSafe(topic)}'\n(run with --help for usage)\n`);
    return EXIT.USAGE;
  }
  try {
    await program.parseAsync(argv);
    return output.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help asked for (`--help`, `app help serve`) is a success; help shown because no command was given (`app profiles`) is a usage error.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.OK;
      if (error.code === 'commander.help' && error.exitCode === 0) return EXIT.OK;
      return EXIT.USAGE;
    }
    if (error instanceof AppError) {
      output.err(`app: ${terminalSafe(error.message)}\n`);
      if (error instanceof AppLoadError && error.details) output.err(`${terminalSafeBlock(error.details)}\n`);
      return exitCodeFor(error.code);
    }
    output.err(`app: ${terminalSafe(String((error as Error)?.message ?? error))}\n`);
    return EXIT.FAILURE;
  }
}
