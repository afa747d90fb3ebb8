import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';

// What `app serve` prints is what the store keeps: a log line that quotes a route secret, an
// Authorization value of another scheme, an API key header, a password in free text or a JSON
// string, or a credential of a known format, shows it as [REDACTED] in the terminal too.

const ROUTE_SECRET = 'rt-5f1c9a0e7d3b4c2a';
const TOKEN_VALUE = 'tk9f8e7d6c5b4a3928';
const API_KEY = 'apikey-77e1d0c9b8a7f6e5';
const PASSWORD = 'hunter2-planted-pw';
const GITHUB = `ghp_${'A1b2C3d4E5'.repeat(3)}A1b2C3`;
const DB_PASSWORD = 'dbpw-9c8b7a6f5e';

const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp({ name: 'terminal-secrets' })
  .get('reset', '/reset/{token}', ({ params, log }) => {
    log.warning('reset requested for ' + params.token);
    return 'ok';
  })
  .get('auth', '/auth', ({ request, log }) => {
    log.warning('auth header was ' + request.header('authorization'));
    log.critical('key ' + request.header('x-api-key') + ' refused');
    log.error('login failed for password=${PASSWORD} with GitHub ${GITHUB}');
    log.warning('body: {body}', { body: '{"password":"${PASSWORD}"}' });
    log.error('cannot reach postgres://app:${DB_PASSWORD}@db.internal:5432/shop');
    throw new Error('refused password=${PASSWORD}');
  });
`;

const test = suite('app serve prints log lines and exceptions redacted as the store keeps them');
let dir: string;
let server: ServeProcess;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-terminal-secrets-'));
  writeFileSync(join(dir, 'app.config.mjs'), APP);
  server = await startServe(['--app', 'app.config.mjs', '--no-watch', '--store', join(dir, 'store')], { cwd: dir });
});

test.after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when the app logs secrets of its request and credentials of known formats, then none reaches the terminal, and each line says [REDACTED] where it was', async () => {
  const reset = await fetchText(`${server.base}/reset/${ROUTE_SECRET}`);
  assert.is(reset.status, 200);
  const auth = await fetchText(`${server.base}/auth`, {
    headers: { authorization: `Token ${TOKEN_VALUE}`, 'x-api-key': API_KEY },
  });
  assert.is(auth.status, 500);
  await fetchProfileJson(server.base, auth.headers['x-debug-token'] as string);
  assert.ok(await waitFor(() => /refused password=/.test(server.output()), 5_000), server.output());
  const out = server.output();
  for (const secret of [ROUTE_SECRET, TOKEN_VALUE, API_KEY, PASSWORD, GITHUB, DB_PASSWORD]) {
    assert.not.ok(out.includes(secret), `${secret} printed:\n${out}`);
  }
  assert.match(out, /reset requested for \[REDACTED\]/);
  assert.match(out, /auth header was Token \[REDACTED\]/);
  assert.match(out, /CRITICAL .*key \[REDACTED\] refused/);
  assert.match(out, /login failed for password=\[REDACTED\] with GitHub ghp_\[REDACTED\]/);
  assert.match(out, /postgres:\/\/app:\[REDACTED\]@db\.internal/);
});

test.run();
