import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import type { Profile } from '../../core/profiler/profile.js';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { serveFaults, type FaultServer } from './fault-server.js';

/** Controllers and a firewall rule that fail in every way the app API allows; the request timeout is short. */
export const FAULTY_APP = `import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createApp, Response } from ${JSON.stringify(PACKAGE_ENTRY)};

class LedgerError extends Error { override name = 'LedgerError'; }

export const app = createApp({ requestTimeoutMs: 300 })
  .get('ok', '/ok', () => '<html><body>ok</body></html>')
  .get('sync_throw', '/sync-throw', function syncThrow() {
    throw new LedgerError('The balance went negative.');
  })
  .get('async_reject', '/async-reject', async function asyncReject() {
    await new Promise((resolve) => setTimeout(resolve, 5));
    throw new LedgerError('The ledger is unreachable.');
  })
  .get('never_settles', '/never-settles', function neverSettles() {
    return new Promise(() => {});
  })
  .get('works_after_response', '/works-after-response', function worksAfterResponse({ log }) {
    const body = new Readable({ read() {} });
    body.push('the whole answer');
    body.push(null);
    setTimeout(() => {
      body.push('one chunk too many');
      log.warning('Still working after the response ended.');
    }, 100);
    return Response.stream(body, 'text/plain; charset=UTF-8');
  })
  .get('pushes_after_end', '/pushes-after-end', function pushesAfterEnd() {
    const body = new Readable({ read() {} });
    body.push('the answer');
    body.push(null);
    body.push('written after the end');
    return Response.stream(body, 'text/plain; charset=UTF-8');
  })
  .get('stream_fails_midway', '/stream-fails-midway', function streamFailsMidway() {
    const body = new Readable({ read() {} });
    body.push('the first half');
    setTimeout(() => body.destroy(new LedgerError('The second half is lost.')), 50);
    return Response.stream(body, 'text/plain; charset=UTF-8');
  })
  .get('missing_file', '/missing-file', function missingFile() {
    return Response.stream(createReadStream('/nonexistent/appkernel/report.csv'), 'text/csv');
  })
  .get('guarded', '/guarded', () => 'never reached')
  .guard({ name: 'broken', path: '^/guarded$', check: () => { throw new LedgerError('The access list cannot be read.'); } })
  .get('guarded_async', '/guarded-async', () => 'never reached')
  .guard({ name: 'broken_async', path: '^/guarded-async$', check: async () => { throw new LedgerError('The access service timed out.'); } });
`;

export interface FaultyApp extends FaultServer {
  /** stops the server and removes the app folder */
  remove(): Promise<void>;
}

/** The faulty app served by a real dev server (profiler on) from a temporary folder. */
export async function serveFaultyApp(): Promise<FaultyApp> {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-faulty-app-'));
  writeFileSync(join(dir, 'app.config.ts'), FAULTY_APP);
  const served = await serveFaults({ appFile: join(dir, 'app.config.ts'), root: dir });
  return {
    ...served,
    async remove() {
      await served.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ProfiledFailure {
  status: number;
  body: string;
  headers: Record<string, string>;
  /** the profile, loaded through /_profiler/<token>.json */
  profile: Profile;
}

/**
 * GET `path`, expect `status`, load its profile through the JSON endpoint, and
 * check that the server still answers a plain request afterwards.
 */
export async function fetchFailure(
  t: FaultServer,
  path: string,
  status: number,
  headers: Record<string, string> = {},
): Promise<ProfiledFailure> {
  const r = await fetchText(`${t.base}${path}`, { headers });
  assert.is(r.status, status, `GET ${path}: ${r.body.slice(0, 300)}`);
  const token = r.headers['x-debug-token'];
  assert.ok(token, `GET ${path} carries X-Debug-Token`);
  const profile = (await fetchProfileJson(t.base, token)) as Profile;
  assert.is(profile.status, status, 'the profile records the status sent');
  assert.is((await fetchText(`${t.base}/ok`)).status, 200, 'the server keeps serving');
  return { ...r, profile };
}
