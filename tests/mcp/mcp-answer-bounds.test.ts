import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpChildEnv } from '../helpers/mcp-child-env.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN, PACKAGE_ENTRY } from '../helpers/cli.js';
import { fetchProfiled } from '../helpers/profiled-request.js';
import { serveForTest, type TestServer } from '../helpers/serve.js';
import { callText, newClient, SECRET } from './mcp-client.js';

const test = suite(
  'app mcp: every answer stays under 20,000 characters on a profile with 10,000 log records, and says how to read on',
);
const BOUND = 20_000;
let dir: string;
let t: TestServer;
let client: ReturnType<typeof newClient>;
let noisy: string;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-mcp-bounds-'));
  const appFile = join(dir, 'app.config.ts');
  writeFileSync(
    appFile,
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .get('noisy', '/noisy', function noisy({ log }) {
    for (let i = 0; i < 10000; i++) log.info('Record {i} of a noisy request.', { i });
    throw new Error('Failed after 10000 log records');
  });
`,
  );
  t = await serveForTest({ appFile });
  noisy = (await fetchProfiled(t, `/noisy?password=${SECRET}`, { Authorization: `Bearer ${SECRET}` })).token;
  client = newClient();
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      env: mcpChildEnv(),
      args: [BIN, 'mcp', '--store', t.storeDir, '--app', appFile],
      stderr: 'ignore',
    }),
  );
});
test.after(async () => {
  await client.close();
  await t.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when each tool and the resources are asked about the noisy profile, then no answer passes the bound and none shows the secret', async () => {
  const answers: Record<string, string> = {
    log: (await callText(client, 'get_profile', { token: noisy, panel: 'log' })).text,
    json: (await callText(client, 'get_profile', { token: noisy, format: 'json' })).text,
    logJson: (await callText(client, 'get_profile', { token: noisy, panel: 'log', format: 'json' })).text,
    events: (await callText(client, 'get_profile', { token: noisy, panel: 'events' })).text,
    error: (await callText(client, 'last_error')).text,
    list: (await callText(client, 'list_profiles', { limit: 200 })).text,
    explain: (await callText(client, 'explain_route', { path: '/noisy/x' })).text,
    routes: (await callText(client, 'list_routes')).text,
  };
  const read = await client.readResource({ uri: `appkernel://profiles/${noisy}` });
  answers.resource = read.contents.map((c) => ('text' in c ? c.text : '')).join('');
  for (const [name, text] of Object.entries(answers)) {
    assert.ok(text.length <= BOUND, `${name}: ${text.length} characters`);
    assert.not.ok(text.includes(SECRET), `${name} shows the secret`);
  }
  assert.match(answers.log, /more characters cut: call again with offset=\d+/);
  assert.ok(answers.error.includes('Failed after 10000 log records'), answers.error.slice(0, 2000));
  assert.match(answers.error, /\(\d+ of 100\d\d log records shown, around the error/, answers.error.slice(-3000));
});

test('when the log panel is read on with the offset its note gives, then the next part comes, and so on to the end', async () => {
  let offset = 0;
  let pages = 0;
  let last = '';
  for (; pages < 200; pages++) {
    const { text } = await callText(client, 'get_profile', { token: noisy, panel: 'log', offset });
    assert.ok(text.length <= BOUND, `${text.length}`);
    const next = /call again with offset=(\d+)/.exec(text);
    last = text;
    if (!next) break;
    assert.ok(Number(next[1]) > offset);
    offset = Number(next[1]);
  }
  assert.ok(pages > 2 && pages < 200, `${pages} pages`);
  assert.ok(last.includes('Record 9999 of a noisy request.'), last.slice(-500));
});

test.run();
