import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { waitFor } from '../helpers/poll.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfiled } from '../helpers/profiled-request.js';
import { fetchRawPath, fetchText, serveForTest, type TestServer } from '../helpers/serve.js';
import { callText, newClient, SECRET, TOOL_NAMES } from './mcp-client.js';

const test = suite(
  "app serve at /_profiler/mcp: the same tools over MCP's Streamable HTTP, for this server's Host and Origin only",
);
let t: TestServer;
let boom: string;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

test.before(async () => {
  t = await serveForTest();
  await fetchProfiled(t, `/missing-page?password=${SECRET}`, { Authorization: `Bearer ${SECRET}` });
  boom = (await fetchProfiled(t, '/boom')).token;
});
test.after(async () => {
  await t.stop();
});

test("when the SDK's client connects over HTTP, then it lists the six tools and each answers on the demo app's profiles without the secret", async () => {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/_profiler/mcp`)));
  try {
    assert.equal((await client.listTools()).tools.map((tool) => tool.name).sort(), TOOL_NAMES);
    const answers = [
      await callText(client, 'list_profiles'),
      await callText(client, 'get_profile', { token: 'latest', panel: 'request' }),
      await callText(client, 'last_error'),
      await callText(client, 'explain_route', { path: '/missing-page' }),
      await callText(client, 'list_routes'),
    ];
    assert.ok(answers[0].text.includes(boom), answers[0].text);
    assert.ok(answers[2].text.includes(boom), answers[2].text);
    assert.ok(answers[3].text.includes('No route matches.'), answers[3].text);
    assert.ok(answers[4].text.includes('_profiler'), "the profiler's routes are listed");
    for (const answer of answers) {
      assert.not.ok(answer.isError, answer.text);
      assert.not.ok(answer.text.includes(SECRET));
    }
    const { contents } = await client.readResource({ uri: `appkernel://profiles/${boom}` });
    assert.ok(contents.some((c) => 'text' in c && c.text.includes('/boom')));
  } finally {
    await client.close();
  }
});

test('when a client over HTTP subscribes to appkernel://profiles, then it is told on its event stream of a new profile; replay answers too', async () => {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/_profiler/mcp`)));
  try {
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri);
    });
    await client.subscribeResource({ uri: 'appkernel://profiles' });
    await new Promise((resolve) => setTimeout(resolve, 600));
    const replayed = await callText(client, 'replay', { token: boom });
    assert.not.ok(replayed.isError, replayed.text);
    assert.match(replayed.text, /^GET http:\/\/127\.0\.0\.1:\d+\/boom -> 500 \(token [0-9a-f]{6}\)/);
    const fresh = (await fetchProfiled(t, '/hello/notified')).token;
    const listed = async () => {
      const { contents } = await client.readResource({ uri: 'appkernel://profiles' });
      return contents.some((c) => 'text' in c && c.text.includes(fresh));
    };
    assert.ok(
      await waitFor(async () => updates.includes('appkernel://profiles') && (await listed()), 10_000),
      `a resources/updated notification came: ${updates.join(', ')}`,
    );
  } finally {
    await client.close();
  }
});

test('when a request names a session the server does not hold, then 404, as the specification asks', async () => {
  const r = await fetchText(`${t.base}/_profiler/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'Mcp-Session-Id': 'no-such-session' },
    body: INITIALIZE,
  });
  assert.is(r.status, 404, r.body);
});

test('when a page of another site calls with its Origin, then it is refused 403; without Origin or from this origin it is answered', async () => {
  const url = `${t.base}/_profiler/mcp`;
  const foreign = await fetchText(url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, Origin: 'http://evil.example' },
    body: INITIALIZE,
  });
  assert.is(foreign.status, 403);
  const nullOrigin = await fetchText(url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, Origin: 'null' },
    body: INITIALIZE,
  });
  assert.is(nullOrigin.status, 403);
  const same = await fetchText(url, { method: 'POST', headers: { ...MCP_HEADERS, Origin: t.base }, body: INITIALIZE });
  assert.is(same.status, 200, same.body);
  assert.is(JSON.parse(same.body).result.serverInfo.name, 'appkernel');
});

test('when the Host is a foreign name (DNS rebinding), then the request is refused before MCP', async () => {
  const answer = await fetchRawPath(t.base, '/_profiler/mcp', { Host: `evil.example:${new URL(t.base).port}` });
  assert.ok(answer.status === 421 || answer.status === 403, String(answer.status));
});

test('when the profiler is off (--no-debug), then /_profiler/mcp is a 404 like the other profiler routes', async () => {
  const off = await serveForTest({ debug: false });
  try {
    const answer = await fetchText(`${off.base}/_profiler/mcp`, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: INITIALIZE,
    });
    assert.is(answer.status, 404);
  } finally {
    await off.stop();
  }
});

test.run();
