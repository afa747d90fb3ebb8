import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../core/profiler/profile.js';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { cliOutputs, leaks, profilerPages, SECRETS_APP, storeContents, uniqueSecret } from './secrets-harness.js';

const test = suite(
  "no page, JSON view or output reveals environment variables, or file contents beyond excerpts of the app's own code",
);
let root: string;
let dir: string;
let serve: ServeProcess;
const tokens: string[] = [];
const pages: { name: string; text: string }[] = [];

const ENV_NAME = 'APPKERNEL_HARDENING_ENV_SECRET';
const secrets = {
  'environment variable': uniqueSecret('env'),
  '.env file in the app folder': uniqueSecret('dotenv'),
  'text file in the app folder': uniqueSecret('notes'),
  'source file outside the app folder': uniqueSecret('module'),
};
const files: Record<string, string> = {};

test.before(async () => {
  root = mkdtempSync(join(tmpdir(), 'appkernel-leak-'));
  dir = join(root, 'app');
  mkdirSync(dir);
  mkdirSync(join(root, 'elsewhere'));
  writeFileSync(join(dir, 'app.config.mjs'), SECRETS_APP);
  files.env = join(dir, '.env');
  files.notes = join(dir, 'notes.txt');
  files.module = join(root, 'elsewhere', 'settings.ts');
  writeFileSync(files.env, `DATABASE_PASSWORD=${secrets['.env file in the app folder']}\n`);
  writeFileSync(files.notes, `${secrets['text file in the app folder']}\n`);
  writeFileSync(files.module, `export const key = '${secrets['source file outside the app folder']}';\n`);
  serve = await startServe(['--store', join(dir, 'store'), '--no-watch', '--log-level', 'DEBUG'], {
    cwd: dir,
    env: { [ENV_NAME]: secrets['environment variable'] },
  });

  // An exception message that quotes a request value can hold lines shaped like stack frames.
  const forged = [
    '7',
    `    at readEnv (${files.env}:1:1)`,
    `    at loadSettings (${files.module}:1:1)`,
    `    at readNotes (file://${files.notes}:1:1)`,
  ].join('\n');
  for (const path of [
    `/fail?id=${encodeURIComponent(forged)}`,
    '/fail?id=1',
    `/nowhere?file=${encodeURIComponent(files.env)}`,
    '/accept',
  ]) {
    const r = await fetchText(`${serve.base}${path}`, { headers: { referer: `file://${files.env}` } });
    pages.push({ name: `response to GET ${path.slice(0, 40)}`, text: r.body });
    tokens.push(r.headers['x-debug-token']);
    await fetchProfileJson(serve.base, r.headers['x-debug-token']);
  }
});

test.after(async () => {
  await serve?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

test('when the debug error pages and every profiler page are read, then no environment value or file content is in them', async () => {
  assert.equal(leaks(secrets, [...pages, ...(await profilerPages(serve.base, tokens))]), []);
});

test('when the store and every CLI output are read, then no environment value or file content is in them', async () => {
  const outputs = await cliOutputs(join(dir, 'store'), tokens, { [ENV_NAME]: secrets['environment variable'] });
  assert.equal(
    leaks(secrets, [
      ...storeContents(join(dir, 'store')),
      ...outputs,
      { name: 'app serve output', text: serve.output() },
    ]),
    [],
  );
});

test('when a message holds lines shaped like stack frames, then they are not read as frames', async () => {
  const profile = (await fetchProfileJson(serve.base, tokens[0])) as Profile;
  const [error] = profile.collectors.exception!.chain;
  assert.ok(error.message.includes('at readEnv'), 'the message is kept whole');
  const names = error.frames.map((f) => f.function);
  for (const forged of ['readEnv', 'loadSettings', 'readNotes'])
    assert.not.ok(names.includes(forged), `a forged frame ${forged}`);
  assert.ok(
    error.frames.some((f) => f.file === 'app.config.mjs'),
    'the real frame of the controller is there',
  );
});

test("when a profile shows code excerpts, then each is of an app source file inside the app folder, and is that file's own lines", async () => {
  let excerpts = 0;
  for (const token of tokens) {
    const profile = (await fetchProfileJson(serve.base, token)) as Profile;
    for (const frame of profile.collectors.exception?.chain.flatMap((e) => e.frames) ?? []) {
      if (!frame.excerpt) continue;
      excerpts += 1;
      assert.is(frame.kind, 'app');
      assert.match(frame.file ?? '', /^(?!\/|\.\.)[^]*\.(?:[cm]?[jt]s|[jt]sx)$/, `an excerpt of ${frame.file}`);
      const lines = readFileSync(join(dir, frame.file!), 'utf8').split('\n');
      const own = lines.slice(frame.excerpt.start - 1, frame.excerpt.start - 1 + frame.excerpt.lines.length);
      assert.is(frame.excerpt.lines.length, own.length);
      // Each line is the file's own, where redaction (secret-looking names and values) may have replaced a part.
      frame.excerpt.lines.forEach((line, i) =>
        assert.ok(
          redactedFrom(line).test(own[i]),
          `line ${frame.excerpt!.start + i}: ${JSON.stringify(line)} is not ${JSON.stringify(own[i])}`,
        ),
      );
    }
  }
  assert.ok(excerpts > 0, 'the app frames have excerpts');
});

/** A pattern matching the original of a stored line: "[REDACTED]" stands for any text. */
function redactedFrom(line: string): RegExp {
  return new RegExp(
    `^${line
      .split('[REDACTED]')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+?')}$`,
  );
}

test.run();
