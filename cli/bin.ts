#!/usr/bin/env node
// Source maps first, so every trace (the app's and ours) names the TypeScript file and line.
process.setSourceMapsEnabled(true);
const { memoizeSourceMappedStacks } = await import('../core/kernel/source-mapped-stacks.js');
memoizeSourceMappedStacks();
const { runCli } = await import('./main.js');
process.exitCode = await runCli(process.argv);
