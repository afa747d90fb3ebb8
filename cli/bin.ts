#!/usr/bin/env node
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // The version alone needs package.json only: printed before commander and the commands load.
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  process.stdout.write(`${version}\n`);
} else {
  // Source maps first, so every trace (the app's and ours) names the TypeScript file and line.
  process.setSourceMapsEnabled(true);
  const { memoizeSourceMappedStacks } = await import('../core/kernel/source-mapped-stacks.js');
  memoizeSourceMappedStacks();
  const { runCli } = await import('./main.js');
  process.exitCode = await runCli(process.argv);
}
