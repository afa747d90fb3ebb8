import { Command, CommanderError } from 'commander';
import { makeProgram } from '../cli/main.js';
import type { Output } from '../cli/output.js';

export type ProgramFactory = (output: Output) => Command;

/** The width docs/cli-reference.md is written at, whatever terminal runs `npm run docs:cli`. */
const HELP_WIDTH = 80;

/** Every command's words after `app`, walked from the program itself, so a command added later is listed too. */
export function commandPaths(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((sub) => commandPaths(sub, [...path, sub.name()]))];
}

/** What `app <path> --help` prints, examples included, at HELP_WIDTH columns and without colour. */
async function helpOf(make: ProgramFactory, path: string[]): Promise<string> {
  let text = '';
  const program = make(quietOutput((t) => void (text += t)));
  for (const command of commandsIn(program))
    command.configureOutput({ getOutHelpWidth: () => HELP_WIDTH, getOutHasColors: () => false });
  try {
    await program.parseAsync(['node', 'app', ...path, '--help']);
  } catch (error) {
    if (!(error instanceof CommanderError) || error.exitCode !== 0) throw error;
  }
  return text.trimEnd();
}

function commandsIn(command: Command): Command[] {
  return [command, ...command.commands.flatMap(commandsIn)];
}

function quietOutput(write: (text: string) => void = () => {}): Output {
  return { out: write, err: write, color: false, errColor: false, exitCode: 0 };
}

/** GitHub's anchor for a heading made of lower-case words and spaces. */
function anchor(heading: string): string {
  return heading.replace(/ /g, '-');
}

/** The Markdown of docs/cli-reference.md: a list of the commands, then each one's help in a text block. */
export async function cliReference(make: ProgramFactory = makeProgram): Promise<string> {
  const headings = commandPaths(make(quietOutput())).map((path) => ['app', ...path].join(' '));
  const sections: string[] = [];
  for (const heading of headings)
    sections.push(`## ${heading}\n\n\`\`\`text\n${await helpOf(make, heading.split(' ').slice(1))}\n\`\`\`\n`);
  return [
    '# CLI reference',
    '',
    `Every command's \`--help\`, as \`app\` prints it at ${HELP_WIDTH} columns. \`npm run docs:cli\` writes this page from the`,
    'commands themselves and `tests/scripts/cli-reference.test.ts` fails when it is stale: edit the commands',
    '(`cli/`), not this page. How the commands find the store, fit the terminal and exit: [cli.md](cli.md).',
    '',
    ...headings.map((heading) => `- [${heading}](#${anchor(heading)})`),
    '',
    ...sections,
  ].join('\n');
}
