import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpChildEnv } from '../helpers/mcp-child-env.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';
import { fetchProfiled } from '../helpers/profiled-request.js';
import { serveForTest, type TestServer } from '../helpers/serve.js';
import { callText, newClient, SECRET, TOOL_NAMES } from './mcp-client.js';

const test = suite("app mcp: the profiler's tools to an MCP client over stdio, on profiles of the demo app");
let t: TestServer;
let client: ReturnType<typeof newClient>;
let missing: string;
let boom: string;

test.before(async () => {
  t = await serveForTest();
  missing = (await fetchProfiled(t, `/missing-page?password=${SECRET}`, { Authorization: `Bearer ${SECRET}` })).token;
  boom = (await fetchProfiled(t, '/boom', { Authorization: `Bearer ${SECRET}` })).token;
  client = newClient();
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      env: mcpChildEnv(),
      args: [BIN, 'mcp', '--store', t.storeDir],
      stderr: 'ignore',
    }),
  );
});
test.after(async () => {
  await client.close();
  await t.stop();
});

async function resourceText(uri: string): Promise<string> {
  const { contents } = await client.readResource({ uri });
  return contents.map((c) => ('text' in c ? c.text : '')).join('');
}

test('when the tools are listed, then the six tools come, each with a description and an input schema', async () => {
  const { tools } = await client.listTools();
  assert.equal(tools.map((tool) => tool.name).sort(), TOOL_NAMES);
  for (const tool of tools) {
    assert.ok((tool.description ?? '').length > 40, tool.name);
    assert.is(tool.inputSchema.type, 'object');
  }
});

test("when each tool is called on the demo app's 404 and 500, then each answers what it is for, without the planted secret or escapes", async () => {
  const answers = {
    list: await callText(client, 'list_profiles', { status: '4xx' }),
    profile: await callText(client, 'get_profile', { token: missing, panel: 'request' }),
    json: await callText(client, 'get_profile', { token: missing, format: 'json' }),
    error: await callText(client, 'last_error'),
    explain: await callText(client, 'explain_route', { path: '/missing-page' }),
    routes: await callText(client, 'list_routes'),
  };
  assert.ok(answers.list.text.includes(missing) && !answers.list.text.includes(boom), answers.list.text);
  assert.match(answers.profile.text, /GET http:\/\/127\.0\.0\.1:\d+\/missing-page/);
  assert.is(JSON.parse(answers.json.text).token, missing);
  assert.ok(answers.error.text.includes(boom), answers.error.text);
  assert.match(answers.error.text, /demo-app\.ts:\d+/);
  assert.ok(answers.error.text.includes('Log around the error'), answers.error.text);
  assert.ok(answers.explain.text.includes('No route matches.'), answers.explain.text);
  assert.ok(answers.explain.text.includes('hello'), answers.explain.text);
  assert.ok(answers.routes.text.includes('/hello/{name}'), answers.routes.text);
  for (const [name, answer] of Object.entries(answers)) {
    assert.not.ok(answer.isError, `${name}: ${answer.text}`);
    assert.not.ok(answer.text.includes(SECRET), `${name} shows the secret`);
    assert.not.match(answer.text, /\x1b/, `${name} has a terminal escape`);
  }
});

test('when replay is called on the 500, then the request is sent again to the server and the comparison comes', async () => {
  const answer = await callText(client, 'replay', { token: boom });
  assert.not.ok(answer.isError, answer.text);
  assert.match(answer.text, /^GET http:\/\/127\.0\.0\.1:\d+\/boom -> 500 \(token [0-9a-f]{6}\)/);
  assert.not.ok(answer.text.includes(SECRET));
});

test('when a bad token or panel is asked for, then the answer is an error that says why', async () => {
  const token = await callText(client, 'get_profile', { token: 'zzz' });
  assert.ok(token.isError && token.text.includes('6 lowercase hexadecimal'), token.text);
  const panel = await callText(client, 'get_profile', { token: missing, panel: 'nope' });
  assert.ok(panel.isError && panel.text.includes('Unknown panel "nope"'), panel.text);
});

test('when a profile resource is read, then it holds the profile; the template lists the stored ones', async () => {
  const text = await resourceText(`appkernel://profiles/${boom}`);
  assert.ok(text.includes(boom) && text.includes('/boom'), text);
  assert.not.ok(text.includes(SECRET));
  const { resources } = await client.listResources();
  assert.ok(
    resources.some((r) => r.uri === `appkernel://profiles/${missing}`),
    JSON.stringify(resources),
  );
});

test('when a client subscribed to appkernel://profiles and a request is profiled, then it is told the list was updated', async () => {
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updates.push(notification.params.uri);
  });
  await client.subscribeResource({ uri: 'appkernel://profiles' });
  await new Promise((resolve) => setTimeout(resolve, 600));
  const fresh = (await fetchProfiled(t, '/hello/notified')).token;
  // The replay of the test before may be stored first: updates are awaited until the new profile is listed.
  assert.ok(
    await waitFor(
      async () =>
        updates.includes('appkernel://profiles') && (await resourceText('appkernel://profiles')).includes(fresh),
      10_000,
    ),
    `a resources/updated notification came: ${updates.join(', ')}`,
  );
});

test.run();
