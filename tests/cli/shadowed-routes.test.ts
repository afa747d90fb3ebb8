import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findShadowedRoutes } from '../../core/app/route-checks.js';
import { RouteCollection } from '../../core/routing/route-collection.js';
import { PACKAGE_ENTRY, runApp, startServe } from '../helpers/cli.js';
import { outputShows } from '../helpers/poll.js';

const names = (routes: RouteCollection) =>
  findShadowedRoutes(routes).map(({ route, by }) => `${route.name}<${by.name}`);

const unit = suite('findShadowedRoutes');

unit('a later route with the same path and methods, or fewer, is shadowed; other methods or paths are not', () => {
  const routes = new RouteCollection()
    .add('a', { path: '/same', methods: ['GET', 'POST'], controller: 'a' })
    .add('b', { path: '/same', methods: ['GET'], controller: 'b' })
    .add('c', { path: '/same', methods: ['PUT'], controller: 'c' })
    .add('d', { path: '/other', controller: 'd' })
    .add('e', { path: '/any', controller: 'e' })
    .add('f', { path: '/any', methods: ['DELETE'], controller: 'f' });
  assert.equal(names(routes), ['b<a', 'f<e']);
});

unit(
  'a static path that an earlier pattern matches is shadowed; one its requirement refuses is not; the same pattern is',
  () => {
    const routes = new RouteCollection()
      .add('post', { path: '/posts/{id}', methods: ['GET'], controller: 'post' })
      .add('new_post', { path: '/posts/new', methods: ['GET'], controller: 'new_post' })
      .add('item', { path: '/items/{id<\\d+>}', methods: ['GET'], controller: 'item' })
      .add('new_item', { path: '/items/new', methods: ['GET'], controller: 'new_item' })
      .add('item_again', { path: '/items/{n<\\d+>}', methods: ['GET'], controller: 'item_again' });
    assert.equal(names(routes), ['new_post<post', 'item_again<item']);
  },
);

unit.run();

const cli = suite('app routes and app serve warn of a route that can never match (real bin)');
let dir: string;

cli.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-shadowed-'));
  writeFileSync(
    join(dir, 'app.config.ts'),
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .get('post', '/posts/{id}', () => 'post')
  .get('new_post', '/posts/new', () => 'new');
`,
  );
});

cli.after(() => rmSync(dir, { recursive: true, force: true }));

const WARNING =
  /warning: Route "new_post" \(GET \/posts\/new\) can never match: route "post" \(GET \/posts\/\{id\}\), defined before it, always matches first\./;

cli('app routes prints the warning naming both routes, and still lists them', async () => {
  const r = await runApp(['routes'], { cwd: dir });
  assert.is(r.code, 0);
  assert.match(r.stderr, WARNING);
  assert.match(r.stdout, /new_post/);
});

cli('app serve prints the warning', async () => {
  const serve = await startServe(['--store', join(dir, 'var'), '--no-watch'], { cwd: dir });
  try {
    assert.ok(await outputShows(serve, WARNING, 3000), serve.output());
  } finally {
    await serve.stop();
  }
});

cli.run();
