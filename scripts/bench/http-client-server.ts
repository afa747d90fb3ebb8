// The server side of bench:http-client: `app serve`'s dev server with an app whose one route makes
// one outgoing fetch to BENCH_UPSTREAM; BENCH_MODE says what the profiler records of it:
// "on" (everything), "off" (no outgoing calls: the HTTP client panel off), "none" (no recording scope at all).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startDevServer } from '../../server/dev-server.js';

const mode = process.env.BENCH_MODE ?? 'on';
const upstream = process.env.BENCH_UPSTREAM ?? '';
const dir = mkdtempSync(join(tmpdir(), 'appkernel-bench-http-client-'));
const entry = resolve(process.cwd(), 'dist/index.js');
writeFileSync(
  join(dir, 'app.config.mjs'),
  `import { createApp } from ${JSON.stringify(entry)};
export const app = createApp().get('call', '/call', async () => ({ upstream: await (await fetch(${JSON.stringify(upstream)})).text() }));
`,
);
const server = await startDevServer({
  port: 0,
  host: '127.0.0.1',
  appFile: join(dir, 'app.config.mjs'),
  root: dir,
  storeDir: join(dir, 'store'),
  retention: { maxProfiles: 2_000 },
  debug: true,
  watch: false,
  logLevel: 'EMERGENCY',
  print: () => {},
  recording: { httpClient: mode === 'on', appRecords: mode !== 'none' },
});
process.stdout.write(`${server.url}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
