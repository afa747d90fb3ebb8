import { Command } from 'commander';
import { shellQuote } from '../core/profiler/shell-quote.js';
import type { Output } from './output.js';

interface InitOptions {
  force: boolean;
}

export function makeInitCommand(output: Output): Command {
  return new Command('init')
    .description(
      'Create a new app in a folder (default: the working directory): app.config.ts, package.json scripts, tsconfig.json, public/',
    )
    .argument('[dir]', 'the folder to create the app in', '.')
    .option('--force', 'also in a folder that holds other files (none is overwritten)', false)
    .addHelpText(
      'after',
      '\nExamples:\n  $ app init              in the working directory\n  $ app init my-app       in ./my-app (created)\n  $ app init . --force    beside the files already there',
    )
    .action(async (dir: string, opts: InitOptions) => {
      const { scaffoldProject } = await import('../core/app/scaffold/scaffold.js');
      const result = scaffoldProject(dir, { force: opts.force });
      for (const name of result.written) output.err(`created ${name}\n`);
      for (const name of result.updated) output.err(`updated ${name}\n`);
      for (const name of result.kept) output.err(`kept    ${name} (already there)\n`);
      for (const note of result.notes) output.err(`note:   ${note}\n`);
      const { serve, test } = result.commands;
      const width = Math.max(serve.length, test.length, 'npm install'.length) + 2;
      output.err(
        `\nNext:\n${dir === '.' ? '' : `  cd ${shellWord(dir)}\n`}  ${'npm install'.padEnd(width)}(when appkernel is not installed yet)\n` +
          `  ${serve.padEnd(width)}serve it on http://127.0.0.1:8000 (reloads on save)\n  ${test.padEnd(width)}snapshot tests of your pages\n`,
      );
    });
}

/** The folder as it can be pasted into a shell: quoted when it holds a space or another character the shell acts on. */
function shellWord(dir: string): string {
  return /^[\w./@%+=:,-]+$/.test(dir) ? dir : shellQuote(dir);
}
