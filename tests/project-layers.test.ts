import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importsOf, sourceFiles } from './helpers/source-files.js';

// The folders are layers (ARCHITECTURE.md): an import points down, never up, inside core/ too.

const test = suite('the layers of ARCHITECTURE.md: imports point down only');

/** Top to bottom; a file may import its own layer and those below it. `core` is the ground: core/*.ts. */
const LAYERS = [
  'cli',
  'server',
  'mcp',
  'web-profiler',
  'panels',
  'render',
  'core/app',
  'core/profiler',
  'core/debug',
  'core/kernel',
  'core/http',
  'core/routing',
  'core/log',
  'core/redaction',
  'snapshots',
  'core',
];

/** The layer a path belongs to: the longest one it lies in; null outside every layer (index.ts, tests/). */
function layerOf(path: string): string | null {
  let found: string | null = null;
  for (const layer of LAYERS)
    if (path.startsWith(`${layer}/`) && (found === null || layer.length > found.length)) found = layer;
  return found;
}

/** Each import between two layers, as "from -> to: file -> module". */
function crossings(): { from: string; to: string; line: string }[] {
  const found: { from: string; to: string; line: string }[] = [];
  for (const top of new Set(LAYERS.map((layer) => layer.split('/')[0]))) {
    for (const file of sourceFiles(top)) {
      const from = layerOf(file);
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        const to = layerOf(normalize(join(dirname(file), spec)));
        if (from !== null && to !== null && to !== from) found.push({ from, to, line: `${file} -> ${spec}` });
      }
    }
  }
  return found;
}

test('when core/ is listed, then each of its folders has a place in the layers', () => {
  const folders = readdirSync('core')
    .filter((name) => statSync(join('core', name)).isDirectory())
    .map((name) => `core/${name}`);
  assert.equal(
    folders.filter((folder) => !LAYERS.includes(folder)),
    [],
  );
});

test('when the import reader meets each form of import, then it names every module imported', () => {
  const source = [
    "import { a } from './a.js';",
    "import type { B } from '../b.js';",
    "export { c } from './c.js';",
    "export type { D } from './d.js';",
    "import './e.js';",
    "const f = await import('./f.js');",
    "type G = import('../g.js').G;",
    "import {\n  h,\n} from './h.js';",
    "import { i } from 'node:fs';",
    "new Worker(new URL('./j.js', import.meta.url));",
  ].join('\n');
  assert.equal(importsOf(source), [
    './a.js',
    '../b.js',
    './c.js',
    './d.js',
    './e.js',
    './f.js',
    '../g.js',
    './h.js',
    './j.js',
  ]);
});

test('when every import of the source folders is read, then none points to a layer above its own', () => {
  const upward = crossings()
    .filter(({ from, to }) => LAYERS.indexOf(to) < LAYERS.indexOf(from))
    .map(({ line }) => line);
  assert.equal(upward, []);
});

test('when a file outside core/redaction/ uses redaction, then it imports the one public entry, core/redaction/index.ts', () => {
  const inside = crossings()
    .filter(({ to }) => to === 'core/redaction')
    .map(({ line }) => line);
  assert.ok(inside.length > 0);
  assert.equal(
    inside.filter((line) => !line.endsWith('/redaction/index.js')),
    [],
  );
});

test('when a file outside core/profiler/storage/ opens a store, then it goes through the backends table: no backend module, no PostgreSQL client', () => {
  const BACKEND_MODULE = /\/storage\/(?:postgres-[\w-]+|file-storage|segment-[\w-]+)\.js$/;
  const asking: string[] = [];
  for (const top of new Set(LAYERS.map((layer) => layer.split('/')[0]))) {
    for (const file of sourceFiles(top)) {
      if (file.startsWith('core/profiler/storage/')) continue;
      for (const spec of importsOf(readFileSync(file, 'utf8')))
        if (BACKEND_MODULE.test(spec) || spec === 'pg') asking.push(`${file} -> ${spec}`);
    }
  }
  assert.equal(asking, []);
});

test('when the folders are joined by their imports, then no two of them import each other, directly or through others', () => {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of crossings()) {
    const targets = edges.get(from) ?? new Set<string>();
    edges.set(from, targets.add(to));
  }
  const reaches = (start: string, goal: string): boolean => {
    const seen = new Set<string>();
    const walk = (folder: string): boolean => {
      if (seen.has(folder)) return false;
      seen.add(folder);
      return [...(edges.get(folder) ?? [])].some((next) => next === goal || walk(next));
    };
    return walk(start);
  };
  const cycles = [...edges].flatMap(([from, targets]) =>
    [...targets].filter((to) => reaches(to, from)).map((to) => `${from} <-> ${to}`),
  );
  assert.equal(cycles, []);
});

test.run();
