import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../../helpers/cli.js';
import { fetchProfileJson, fetchText, serveAppSource, type TestServer } from '../../helpers/serve.js';

const APP = (trusted: string[]) => `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp({ trustedProxies: ${JSON.stringify(trusted)} })
  .get('ip', '/ip', ({ request }) => ({ ip: request.clientIp }));
`;

async function clientIpSeen(t: TestServer, forwardedFor: string): Promise<{ controller: string; profile: string }> {
  const r = await fetchText(`${t.base}/ip`, { headers: { 'x-forwarded-for': forwardedFor } });
  const profile = await fetchProfileJson(t.base, r.headers['x-debug-token']);
  return { controller: JSON.parse(r.body).ip, profile: profile.ip };
}

for (const [label, trusted, expected] of [
  ['the peer 127.0.0.1 is not a trusted proxy', [] as string[], '127.0.0.1'],
  ['the peer 127.0.0.1 is a trusted proxy', ['127.0.0.1'], '203.0.113.9'],
] as const) {
  const test = suite(`X-Forwarded-For when ${label}`);
  let t: TestServer;
  test.before(async () => {
    t = await serveAppSource('app.config.ts', APP([...trusted]));
  });
  test.after(async () => {
    await t.stop();
  });

  test(`when a request says X-Forwarded-For: 203.0.113.9, then the client IP is ${expected} for the controller and the profile`, async () => {
    assert.equal(await clientIpSeen(t, '203.0.113.9'), { controller: expected, profile: expected });
  });

  if (trusted.length > 0) {
    test('when the chain holds a spoofed first hop, then the nearest untrusted hop is the client', async () => {
      assert.equal(await clientIpSeen(t, '198.51.100.1, 203.0.113.9, 127.0.0.1'), {
        controller: '203.0.113.9',
        profile: '203.0.113.9',
      });
    });
  }

  test.run();
}
