import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { BUILT_IN_PANEL_NAMES } from '../../panels/registry.js';
import { scanRecords } from '../../core/profiler/storage/record-codec.js';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { PACKAGE_ENTRY, runCliInProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';

/** A value no page, file or output holds by chance: found anywhere, it leaked. */
export function uniqueSecret(label: string): string {
  return `${label.replace(/[^a-z0-9]/gi, '').slice(0, 12)}Zq${randomBytes(6).toString('hex')}`;
}

/**
 * Routes that make secrets travel every way a request or response can carry
 * them: echoing nothing, setting cookies and secret-named response headers,
 * redirecting to a URL with a token, throwing, answering secrets in a JSON or text
 * body, and echoing the request's body back as text.
 */
export const SECRETS_APP = `import { createApp, HttpError, Response } from ${JSON.stringify(PACKAGE_ENTRY)};

// Values only the app knows (given by the test through the environment), so that they reach the profile by the log alone.
const planted = JSON.parse(process.env.APPKERNEL_TEST_PLANTED ?? '{}');

export const app = createApp({ name: 'secrets' })
  .get('reset', '/reset/{token}', function reset({ params }) {
    return { reset: params.token.length };
  })
  .get('expire', '/expire/{token}', function expire({ request }) {
    throw new Error('Expired link ' + request.url);
  })
  .get('log', '/log', function log({ log }) {
    log.info('Calling the upstream', { password: planted.password, apiKey: planted.apiKey, nested: { token: planted.nestedToken }, user: 'ann' });
    log.warning('Fetched https://api.test/v1?api_key=' + planted.loggedApiKey + '&page=2');
    log.notice('Upstream said: Authorization: Bearer ' + planted.loggedBearer);
    log.info('Signed with {key}', { key: planted.contextKey, items: [{ deep: { secret: planted.deepSecret } }] });
    return { logged: true };
  })
  .get('deny', '/deny', function deny() {
    throw new HttpError(401, 'Login again with Bearer ' + planted.exceptionBearer, { 'WWW-Authenticate': 'Bearer realm="x"', 'X-Retry-Token': planted.exceptionHeader });
  })
  .route('accept', '/accept', function accept({ request }) {
    return { received: request.body.length };
  })
  .get('respond', '/respond', function respond({ request }) {
    return Response.html('<!DOCTYPE html><html><head><title>ok</title></head><body>ok</body></html>', 200, {
      'Set-Cookie': request.headers['x-give-cookie'],
      'X-Auth-Token': request.headers['x-give-token'],
    });
  })
  .get('go', '/go', function go({ request }) {
    return Response.redirect(request.headers['x-give-location'], 302);
  })
  .get('fail', '/fail', function fail({ request }) {
    throw new Error('Bad id: ' + request.query.id);
  })
  .get('answer', '/answer', function answer() {
    return { user: 'ann', password: planted.responsePassword, auth: { access_token: planted.responseToken }, items: [{ deep: { secret: planted.responseDeep } }],
      note: 'Upstream said: Authorization: Bearer ' + planted.responseBearer };
  })
  .post('echo', '/echo', function echo({ request }) {
    return new Response(request.body, 200, { 'Content-Type': 'text/plain' });
  });
`;

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The raw bytes of every file of the store, and every entry decompressed from its segments: as stored, and as its profile's JSON. */
export function storeContents(storeDir: string): { name: string; text: string }[] {
  const contents: { name: string; text: string }[] = [];
  for (const file of filesUnder(storeDir)) {
    const bytes = readFileSync(file);
    contents.push({ name: file, text: bytes.toString('latin1') });
    if (file.endsWith('.log')) {
      const { records } = scanRecords(bytes, 0);
      for (const record of records) {
        contents.push({ name: `${file}@${record.offset}`, text: JSON.stringify(record.profile) });
        // What is at rest: a stored record's own bytes (the profile is built from them when read), or the profile's JSON.
        contents.push({ name: `${file}@${record.offset} as stored`, text: record.stored.toString('utf8') });
      }
    }
  }
  return contents;
}

/** Every profile read back through the storage API. */
export async function storedProfiles(storeDir: string): Promise<{ name: string; text: string }[]> {
  const storage = await openFileStorage({ dir: storeDir, onWarning: () => {} });
  try {
    const out: { name: string; text: string }[] = [];
    for (const summary of await storage.search({ limit: 100_000 })) {
      out.push({ name: `storage read ${summary.token}`, text: JSON.stringify(await storage.read(summary.token)) });
    }
    return out;
  } finally {
    await storage.close();
  }
}

/** Every page the profiler shows about the stored profiles: each panel, the JSON view, the search list. */
export async function profilerPages(
  base: string,
  tokens: readonly string[],
): Promise<{ name: string; text: string }[]> {
  const pages: { name: string; text: string }[] = [];
  for (const token of tokens) {
    for (const panel of BUILT_IN_PANEL_NAMES)
      pages.push({
        name: `${token} ${panel} panel`,
        text: (await fetchText(`${base}/_profiler/${token}?panel=${panel}`)).body,
      });
    pages.push({ name: `${token} JSON view`, text: (await fetchText(`${base}/_profiler/${token}.json`)).body });
  }
  pages.push({ name: 'search list', text: (await fetchText(`${base}/_profiler/search?limit=100`)).body });
  return pages;
}

/**
 * Everything the CLI prints about the store: the list, and each profile shown as JSON, text and HTML, and exported.
 * The commands run in this process (hundreds of them: a process each took most of the corpus's time), with `env`
 * set in its environment while they run.
 */
export async function cliOutputs(
  storeDir: string,
  tokens: readonly string[],
  env: Record<string, string> = {},
): Promise<{ name: string; text: string }[]> {
  const commands: string[][] = [
    ['profiles', 'list', '--limit', '1000'],
    ['profiles', 'list', '--limit', '1000', '--json'],
  ];
  for (const token of tokens) {
    commands.push(
      ['profiles', 'show', token, '--json'],
      ['profiles', 'export', token, '--curl'],
      ['profiles', 'export', token, '--har'],
    );
    for (const panel of ['request', 'log', 'exception']) {
      commands.push(
        ['profiles', 'show', token, '--panel', panel],
        ['profiles', 'show', token, '--panel', panel, '--html'],
      );
    }
  }
  const outputs: { name: string; text: string }[] = [];
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    for (const args of commands) {
      const r = await runCliInProcess([...args, '--store', storeDir]);
      assert.is(r.code, 0, `app ${args.join(' ')}: ${r.stderr}`);
      outputs.push({ name: `app ${args.join(' ')}`, text: r.stdout + r.stderr });
    }
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return outputs;
}

/** Each secret, wherever it shows: the list of "<secret label> in <place>". */
export function leaks(secrets: Record<string, string>, places: { name: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const place of places) {
    for (const [label, value] of Object.entries(secrets)) {
      if (place.text.includes(value) || place.text.includes(encodeURIComponent(value)))
        found.push(`${label} in ${place.name}`);
    }
  }
  return found;
}
