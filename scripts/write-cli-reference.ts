// `npm run docs:cli`: writes docs/cli-reference.md from the commands' own --help.
import { writeFileSync } from 'node:fs';
import { cliReference } from './cli-reference.js';

const target = new URL('../../docs/cli-reference.md', import.meta.url);
writeFileSync(target, await cliReference());
process.stdout.write(`wrote ${target.pathname}\n`);
