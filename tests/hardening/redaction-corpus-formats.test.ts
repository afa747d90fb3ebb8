import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp, runAppInProcess, startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { startUpstream, type Upstream } from '../web-profiler/panels/panels-app.js';
import { cliOutputs, leaks, profilerPages, storeContents, storedProfiles } from './secrets-harness.js';

// Credentials of every format the profiler must know, each planted by the app in every place a
// value it holds can travel: a log message, a log context string and a JSON string in it, an
// exception message, a stopwatch span name, a dump value and key, a custom panel cell, an outgoing
// call's header, query and body, and the request's own query (the "Matched route" record's
// request_uri, decoded). Each planted value has a random core that no output holds by chance.

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
function random(length: number, alphabet = ALNUM): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/** A format: the text the app plants, and its secret core, which must show nowhere. */
interface Planted {
  format: string;
  text: string;
  core: string;
}
const FORMATS: (() => Planted)[] = [
  () => {
    const core = random(74);
    return { format: 'OpenAI project key', text: `sk-proj-${core}T3BlbkFJ${random(74)}`, core };
  },
  () => {
    const core = random(95);
    return { format: 'Anthropic key', text: `sk-ant-api03-${core}AA`, core };
  },
  () => {
    const core = random(64, ALNUM + '+/');
    return {
      format: 'PEM private key',
      text: `-----BEGIN RSA PRIVATE KEY-----\nMIIEow${core}\n${random(64)}\n-----END RSA PRIVATE KEY-----`,
      core,
    };
  },
  () => {
    const core = random(24);
    return {
      format: 'Slack webhook',
      text: `https://hooks.slack.com/services/T${random(8, UPPER)}/B${random(8, UPPER)}/${core}`,
      core,
    };
  },
  () => {
    const core = random(24);
    return {
      format: 'Slack bot token',
      text: `xoxb-${random(12, '0123456789')}-${random(13, '0123456789')}-${core}`,
      core,
    };
  },
  () => {
    const core = random(43);
    return { format: 'SendGrid key', text: `SG.${random(22)}.${core}`, core };
  },
  () => {
    const core = random(16, UPPER);
    return { format: 'AWS access key id', text: `AKIA${core}`, core };
  },
  () => {
    const core = random(36);
    return { format: 'GitHub token', text: `ghp_${core}`, core };
  },
  () => {
    const core = random(36);
    return { format: 'npm token', text: `npm_${core}`, core };
  },
  () => {
    const core = random(24);
    return { format: 'Stripe key', text: `sk_live_${core}`, core };
  },
  () => {
    const core = random(35);
    return { format: 'Google API key', text: `AIza${core}`, core };
  },
  () => {
    const core = random(20);
    return { format: 'URL password (postgres)', text: `postgres://app:${core}@db.internal:5432/shop`, core };
  },
  () => {
    const core = random(20);
    return { format: 'URL password (https)', text: `https://deploy:${core}@git.example.com/repo.git`, core };
  },
  () => {
    const core = random(20);
    return { format: 'password= in free text', text: `login failed for password=${core} twice`, core };
  },
  () => {
    const core = `${random(20)}9`;
    return { format: 'Token scheme', text: `auth header was Token ${core}`, core };
  },
  () => {
    const core = random(20);
    return { format: 'JSON in a string', text: `{"user":{"credentials":{"apiKey":"${core}"}}}`, core };
  },
  () => {
    const core = random(20);
    return { format: 'XML element', text: `<login><password>${core}</password></login>`, core };
  },
  () => {
    const core = random(30);
    return { format: 'Bearer in text', text: `upstream said Authorization: Bearer ${core}`, core };
  },
  () => {
    const core = random(20);
    return { format: 'secret= in a sentence', text: `rotating (client_secret=${core}) now`, core };
  },
  () => {
    const core = `${random(8)}.${random(20)}.${random(20)}`;
    return { format: 'JWT', text: `eyJhbGciOiJIUzI1NiJ9.eyJ${core}`, core };
  },
];
/** The places of one request: each format's request plants it in all of them. */
const PLACES = [
  'log message',
  'log context',
  'log context JSON',
  'exception message',
  'span name',
  'dump value',
  'dump key',
  'panel cell',
  'panel cell object',
  'outgoing header',
  'outgoing query',
  'outgoing body',
  'request query',
];

const APP = `import { createApp, dump, record } from ${JSON.stringify(PACKAGE_ENTRY)};
const planted = JSON.parse(process.env.APPKERNEL_TEST_PLANTED);
const upstream = process.env.APPKERNEL_TEST_UPSTREAM;
export const app = createApp({ name: 'formats' })
  .panel('vault', { columns: ['Name', 'Value', 'Object'], row: (e) => [e.name, e.value, JSON.stringify(e.object)] })
  .get('plant', '/plant', async function plant({ log, stopwatch }) {
    const headers = {};
    for (const [i, text] of planted.entries()) {
      log.warning(text);
      log.info('Calling the upstream', { note: text, body: JSON.stringify({ user: 'ann', note: text, password: text }) });
      stopwatch.start(i + ' sync ' + text);
      stopwatch.stop(i + ' sync ' + text);
      dump({ note: text, [text]: 1 });
      record('vault', { name: 'db', value: text, object: { password: text } });
      headers['x-note-' + i] = text.replace(/\\n/g, ' ');
    }
    const query = planted.map((text, i) => 'note' + i + '=' + encodeURIComponent(text)).join('&');
    await fetch(upstream + '/api?' + query, { method: 'POST', headers, body: planted.map((text) => 'note=' + text).join('\\n') }).then((r) => r.text());
    throw new Error('failed: ' + planted.join(' | '));
  });
`;

const test = suite(
  `redaction corpus of credential formats: ${FORMATS.length} formats in ${PLACES.length} places each (${FORMATS.length * PLACES.length} planted values)`,
);
let dir: string;
let store: string;
let serve: ServeProcess;
let upstream: Upstream;
const planted = FORMATS.map((make) => make());
const tokens: string[] = [];

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-formats-'));
  store = join(dir, 'store');
  writeFileSync(join(dir, 'app.config.mjs'), APP);
  upstream = await startUpstream();
  serve = await startServe(['--store', store, '--no-watch'], {
    cwd: dir,
    env: { APPKERNEL_TEST_PLANTED: JSON.stringify(planted.map((p) => p.text)), APPKERNEL_TEST_UPSTREAM: upstream.url },
  });
  const query = planted.map((p, i) => `note${i}=${encodeURIComponent(p.text)}`).join('&');
  const r = await fetchText(`${serve.base}/plant?${query}`);
  assert.is(r.status, 500, r.body.slice(0, 300));
  tokens.push(r.headers['x-debug-token']);
  for (const token of tokens) await fetchProfileJson(serve.base, token);
});

test.after(async () => {
  await serve?.stop();
  await upstream?.close();
  if (process.env.KEEP_DIR) writeFileSync(join(dir, 'planted.json'), JSON.stringify(planted));
  if (process.env.KEEP_DIR) console.log('kept', dir);
  else rmSync(dir, { recursive: true, force: true });
});

test('when every format is planted in every place, then none shows in the store, the pages, the JSON, the CLI, the exports or the terminal', async () => {
  const secrets = Object.fromEntries(planted.map((p) => [p.format, p.core]));
  const pages = await profilerPages(serve.base, tokens);
  for (const token of tokens)
    pages.push({
      name: `${token} vault panel`,
      text: (await fetchText(`${serve.base}/_profiler/${token}?panel=vault`)).body,
    });
  const outputs = await cliOutputs(store, tokens);
  for (const [i, token] of tokens.entries()) {
    for (const panel of ['http_client', 'dump', 'time', 'vault']) {
      const r = await (i === 0 && panel === 'http_client' ? runApp : runAppInProcess)([
        'profiles',
        'show',
        token,
        '--panel',
        panel,
        '--store',
        store,
      ]);
      outputs.push({ name: `${token} show --panel ${panel}`, text: r.stdout + r.stderr });
    }
  }
  const found = leaks(secrets, [
    ...storeContents(store),
    ...(await storedProfiles(store)),
    ...pages,
    ...outputs,
    { name: 'app serve terminal', text: serve.output() },
  ]);
  assert.equal([...new Set(found.map((f) => f.replace(/ [0-9a-f]{6} /, ' <token> ').replace(/@\d+$/, '')))], []);
});

test("when the redacted profile is read back, then what is not secret stays: the format's label, the user name, the query name", async () => {
  const profile = await fetchProfileJson(serve.base, tokens[0]);
  const text = JSON.stringify(profile);
  assert.ok(text.includes('postgres://app:[REDACTED]@db.internal:5432/shop'), 'the URL keeps its user and host');
  const body = profile.collectors.log.records.filter(
    (r: { message: string }) => r.message === 'Calling the upstream',
  )[11].context.body;
  assert.equal(JSON.parse(body), {
    user: 'ann',
    note: 'postgres://app:[REDACTED]@db.internal:5432/shop',
    password: '[REDACTED]',
  });
});

test.run();
