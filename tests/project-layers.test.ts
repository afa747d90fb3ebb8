import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// The folders are layers (ARCHITECTURE.md): an import points down, never up.

const test = suite('the layers of ARCHITECTURE.md: imports point down only');

/** Top to bottom; a file may import its own layer and those below it. */
const LAYERS = ['cli', 'server', 'mcp', 'web-profiler', 'panels', 'render', 'snapshots', 'core'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('when every import of the source folders is read, then none points to a layer above its own', () => {
  const upward: string[] = [];
  for (const layer of LAYERS) {
    for (const file of sources(layer)) {
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = normalize(join(dirname(file), spec)).split('/')[0];
        if (LAYERS.includes(target) && LAYERS.indexOf(target) < LAYERS.indexOf(layer)) upward.push(`${file} -> ${spec}`);
      }
    }
  }
  assert.equal(upward, []);
});

test('when core/ is read, then profile.ts is imported by none of http, routing, log and kernel', () => {
  const offenders = ['core/http', 'core/routing', 'core/log', 'core/kernel'].flatMap((dir) => sources(dir))
    .filter((file) => /from '[^']*profiler\/profile\.js'/.test(readFileSync(file, 'utf8')));
  assert.equal(offenders, []);
});

test.run();
